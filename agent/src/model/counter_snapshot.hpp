#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sysfs/hca.hpp"

namespace ibkit {

// Every port's counters as one check read them, kept in the check's state file so the next
// check can tell what rose in between (a link that went down and came back: a flap).
struct CounterSnapshot {
  std::string host;
  std::string boot_id;        // proc/sys/kernel/random/boot_id: counters restart at boot
  std::int64_t taken_at = 0;  // seconds since the Unix epoch
  std::map<std::string, std::map<std::string, std::uint64_t>> ports;  // "mlx5_0/1" -> counters
  // port.error_rate's verdicts of each port on its last judged checks, oldest first, one letter
  // a check: 'p' passed, 'd' degraded (a burst), 'f' failed (checks/rate_history.hpp).
  std::map<std::string, std::string> rate_history = {};
};

// The counters of every port of `hcas` that gave any.
CounterSnapshot take_counter_snapshot(const std::vector<Hca>& hcas, std::string host,
                                      std::string boot_id, std::int64_t taken_at);

}  // namespace ibkit
