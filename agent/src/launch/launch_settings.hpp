#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "launch/remote_command.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// What a launched sweep starts on every node, and how.
struct LaunchSettings {
  RemoteCommand remote;
  std::string remote_ibkit = "ibkit";  // the agent's path on the nodes
  std::string node_config;             // ibkit check's --config on the nodes; "" = theirs
  std::uint16_t port = 0;              // where each node's ibkit serve listens
  double check_timeout_s = 120;        // one node's ibkit check, its launcher included, at most
  std::optional<Deadline> deadline;    // the sweep's --deadline: no check or wait runs past it
  double listen_timeout_s = 60;        // from starting a server to its "listening on" line
  double serve_deadline_s = 0;         // the servers' own --deadline; 0 = none
  double session_timeout_s = 0;        // the servers' --session-timeout; 0 = theirs (600 s)
  double stop_grace_s = 15;  // from closing the servers' stdin to terminating their launchers
  double term_grace_s = 3;   // from terminating the launchers still running to killing them
  // The signal that stopped the sweep (SIGTERM, SIGINT), else 0: asked while checks run and
  // servers start, which then end at once. None: nothing stops them but their bounds.
  std::function<int()> stop_signal;
};

// The signal that stopped the sweep, else 0.
inline int stopped_by(const LaunchSettings& settings) {
  return settings.stop_signal ? settings.stop_signal() : 0;
}

// A wait of a launch (a check, a server's "listening on"): at most `seconds`, or until the
// sweep's --deadline when that comes first; `by_sweep` says which bounds it.
struct LaunchWait {
  Deadline until;
  bool by_sweep = false;
};

inline LaunchWait launch_wait(const LaunchSettings& settings, double seconds) {
  LaunchWait wait{Deadline::after_seconds(seconds)};
  if (settings.deadline && settings.deadline->time_point() < wait.until.time_point()) {
    wait.until = *settings.deadline;
    wait.by_sweep = true;
  }
  return wait;
}

}  // namespace ibkit
