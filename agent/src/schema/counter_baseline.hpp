#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/counter_snapshot.hpp"

namespace ibkit {

// What the previous check left in the --state file (the counter-state document), as the
// checks that compare two runs see it.
struct CounterBaseline {
  std::string state_path;
  std::int64_t now = 0;                     // seconds since the Unix epoch
  std::optional<CounterSnapshot> previous;  // nullopt: nothing to compare with; `why` says why
  std::string why;          // "no earlier check in FILE", "the node rebooted since ...", ...
  bool unreadable = false;  // the file is there but is not a state file: a warning
  // The ports' rate verdicts of this host's earlier checks, kept across a reboot (a reboot
  // mends no cable): in `previous` or not.
  std::map<std::string, std::string> rate_history = {};
};

// Reads the state file at `state_path` for this host and boot. A missing file, another host's,
// or one from before the last boot gives no previous snapshot and says why; a file that cannot
// be read or parsed does too, with unreadable set. Never fails: the check records a new baseline.
// `max_bytes` bounds what is read: a node's few ports are kilobytes, a subnet's can be megabytes.
CounterBaseline load_counter_baseline(const std::string& state_path, const std::string& host,
                                      const std::string& boot_id, std::int64_t now,
                                      std::size_t max_bytes = 1 << 20);

}  // namespace ibkit
