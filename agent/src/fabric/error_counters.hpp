#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// An error counter of PortCounters (the performance-management class), by the name `ibkit
// check` and the kernel's sysfs give it, and its width in the MAD: a counter at its all-ones
// value has stopped counting.
struct ErrorCounter {
  std::string name;  // "symbol_error"
  int bits = 0;      // 16
};

// The twelve error counters of PortCounters, in the order the MAD holds them.
const std::vector<ErrorCounter>& error_counters();

// Whether `value` is `name`'s all-ones value; false for a name that is none of them.
bool counter_saturated(std::string_view name, std::uint64_t value);

}  // namespace ibkit
