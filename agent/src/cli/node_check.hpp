#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/check_options.hpp"
#include "config/config.hpp"
#include "model/check_report.hpp"
#include "sysfs/hca.hpp"
#include "util/expected.hpp"

namespace ibkit {

// One run of this node's checks, shared by every command that judges the node.
struct NodeCheck {
  CheckReport report;
  std::vector<Hca> hcas;
  int status = 0;                // ExitCode: pass, fail, or environment (no RDMA device)
  std::string environment_note;  // why status is the environment code, worded for stderr
  std::string state_problem;     // why --state could not be written ("" when it was, or none)
  ErrorRateLimits rate_limits;   // the configured [limits] rates, which the metrics export
};

// --root, --config and --state: what every command that judges the node takes.
void add_node_check_options(CLI::App& command, CheckOptions& options);

// The configuration a check of this node uses: --config, else /etc/ibkit/ibkit.toml when --root
// is the live system and the file exists, else the defaults.
Expected<Config> load_check_config(const CheckOptions& options);

// Loads the configuration (--config, else /etc/ibkit/ibkit.toml on the live system, else the
// defaults) and runs every check. An Error is a usage problem (bad --root or --config) whose
// message names the file or flag.
Expected<NodeCheck> run_node_check(const CheckOptions& options);

}  // namespace ibkit
