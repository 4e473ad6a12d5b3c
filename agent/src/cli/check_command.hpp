#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

inline constexpr const char* kDefaultConfigPath = "/etc/ibkit/ibkit.toml";

struct CheckOptions {
  std::string root = "/";
  std::string config;              // "" = /etc/ibkit/ibkit.toml on the live system if present
  std::string format = "text";     // text | json | junit | prometheus
  std::string output;              // "" = stdout
  std::string metrics;             // "" = none; else Prometheus metrics written there as well
  std::string state;               // "" = none; else the port counters kept there between checks
  double state_wait_seconds = 30;  // how long a run waits for another using the same --state
  bool config_only = false;        // validate the configuration and stop
};

// `ibkit check`: the readiness preflight. Returns an ExitCode: 0 pass (warnings allowed),
// 1 a check failed, 2 bad --root/--config/--output/--metrics/--state, 3 no
// RDMA device.
int run_check(const CheckOptions& options, Console& console);

Command add_check_command(CLI::App& app);

}  // namespace ibkit
