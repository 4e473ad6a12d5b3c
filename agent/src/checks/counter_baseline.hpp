#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "model/counter_snapshot.hpp"

namespace ibkit {

// What the previous check left in the state file, as the flap check sees it.
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

// An interval between two checks as the results name it: "45 s", "10 min", "3 h".
std::string interval_text(std::int64_t seconds);

// The first counter named by `is_error_counter` that went back from `before` to `now`, as
// "symbol_error 5 -> 0": the counters were reset (perfquery -R, a driver reload) and nothing
// can be said of what happened in between. "" when none did. Traffic counters
// (port_xmit_data, ...) may wrap and are not to be named.
std::string first_counter_reset(const std::map<std::string, std::uint64_t>& before,
                                const std::map<std::string, std::uint64_t>& now,
                                const std::function<bool(const std::string&)>& is_error_counter);

// Reads the state file at `state_path` for this host and boot. A missing file, another host's,
// or one from before the last boot gives no previous snapshot and says why; a file that cannot
// be read or parsed does too, with unreadable set. Never fails: the check records a new baseline.
// `max_bytes` bounds what is read: a node's few ports are kilobytes, a subnet's can be megabytes.
CounterBaseline load_counter_baseline(const std::string& state_path, const std::string& host,
                                      const std::string& boot_id, std::int64_t now,
                                      std::size_t max_bytes = 1 << 20);

}  // namespace ibkit
