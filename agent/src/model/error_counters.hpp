#pragma once

#include <cstdint>
#include <optional>
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

// What every check says of a counter stopped at its maximum: "stopped counting at its maximum".
extern const char* const kCounterStopped;

// One error counter against its [limits] line, the verdict `ibkit check` and `ibkit fabric`
// share: nullopt within the limit, else why it fails, "symbol_error 12 > 10". A counter stopped
// at its maximum fails whatever the limit, since its count is not known: "link_downed 255 <= 1000
// (stopped counting at its maximum)". `shown` is the value as the check writes it ("+12" for a
// rise since an earlier run).
std::optional<std::string> counter_over_limit(std::string_view name, std::uint64_t value,
                                              std::uint64_t limit, bool extended,
                                              const std::string& shown);

// What to do about the error counters `names` over their limits on a port whose link leads to
// `far` ("the far end" where that is not known), by what the worst of them counts: the cable for
// errors on the wire, the links that feed the port for packets already marked bad, the far end
// and the cable for a link that went down, the SM and routing for drops (and for a counter of no
// kind: port_xmit_wait has a limit too).
std::string counter_advice(const std::vector<std::string>& names, const std::string& far);

}  // namespace ibkit
