#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// An error counter of PortCounters (the performance-management class), by the name `ibkit
// check` and the kernel's sysfs give it, and its width in the MAD: a counter at its all-ones
// value has stopped counting.
// What a counter counts, and so where its fault lies.
enum class CounterKind {
  kWire,            // errors on this link's cable and transceivers
  kLinkDown,        // the link went down: a cable, or the far end restarting
  kMarkedUpstream,  // packets another link had already marked bad
  kDrop,            // packets dropped: congestion, routing, partitions
};

struct ErrorCounter {
  std::string name;  // "symbol_error"
  int bits = 0;      // 16
  CounterKind kind = CounterKind::kWire;
};

// The twelve error counters of PortCounters, in the order the MAD holds them.
const std::vector<ErrorCounter>& error_counters();

// The counter named `name`, or nullptr for a name that is none of them.
const ErrorCounter* error_counter_named(std::string_view name);

// `name`'s all-ones value in PortCounters' width, where it stops (sysfs' counters/ show these
// widths): 65535 for symbol_error, 255 for link_downed; 0 for a name that is none of them.
std::uint64_t counter_maximum(std::string_view name);

// Whether `value` is `name`'s all-ones value, in PortCounters' width or, `extended`, in
// PortCountersExtended's 64 bits; false for a name that is none of them.
bool counter_saturated(std::string_view name, std::uint64_t value, bool extended);

}  // namespace ibkit
