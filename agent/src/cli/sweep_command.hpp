#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/baseline_option.hpp"
#include "cli/command.hpp"
#include "cli/sweep_options.hpp"
#include "cli/workload_options.hpp"
#include "control/auth.hpp"
#include "control/channel.hpp"
#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"

namespace ibkit {

// `ibkit sweep`: every pair of the hosts in rounds of disjoint pairs, each driven through the
// nodes' `ibkit serve`. Prints a summary (and a progress line on a terminal) and writes the
// report files into --output. Returns an
// ExitCode: 0 every pair passed, 1 a pair did not pass or a node is blamed, 2 bad options,
// hosts (a name the name service does not know, two that reach one agent), pairs or config file
// or an --output that cannot be written, 3 the name service gave no answer, or --rails all
// found no RDMA rail on any node (or no node answered before --connect-timeout or --deadline).
// With dry_run it stops after the checks that need no node and no name service (--rails all is
// taken as one rail, and --output is neither created nor probed): 0 and one line saying what
// would run, or 2.
int run_sweep_command(const SweepOptions& options, Console& console);

Command add_sweep_command(CLI::App& app);

}  // namespace ibkit
