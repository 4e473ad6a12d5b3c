#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/baseline_option.hpp"
#include "cli/command.hpp"
#include "cli/workload_options.hpp"
#include "control/auth.hpp"
#include "control/channel.hpp"
#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"

namespace ibkit {

struct SweepOptions {
  std::string hosts;                         // a hosts file, or a comma-separated list
  std::uint16_t port = kDefaultControlPort;  // for hosts without their own
  std::string pattern = "all-pairs";
  std::uint64_t seed = 1;   // random:K
  std::string rails = "1";  // "all" or a count
  WorkloadOptions workload = every_test();
  bool one_way = false;        // --one-way: bw and tcp from each pair's first node to its second
  double deadline_s = 0;       // the whole sweep; 0 = none
  double pair_deadline_s = 0;  // 0 = derived from the tests (pair/test_budget.hpp)
  double connect_timeout_s = 5;
  std::string key_file;
  std::string config;
  std::string format;    // comma list of json, junit, md, csv, html, or all; "" = all with --output
  std::string output;    // a directory for the report files; "" = the summary on stdout only
  bool dry_run = false;  // every check of the options, hosts and pattern; no node, no file
  std::string launch;    // "ssh" or "slurm": start the nodes' agents for the run; "" = not
  std::string remote_ibkit = "ibkit";  // --launch: the agent's path on the nodes
  std::string node_config;             // --launch: ibkit check's --config on the nodes
  BaselineOptions baseline;
};

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

// How a sweep of given hosts ended: its report, or (none) the exit status of what stopped it
// first (options, names, rails, a dry run), which it has said on console.err.
struct SweepOutcome {
  int status = 0;
  std::optional<SweepReport> report;
};

// The sweep of `hosts` as `options` asks, against servers holding `key`; prints the progress
// line on a terminal, not the report.
SweepOutcome sweep_hosts(const SweepOptions& options, const std::vector<SweepHost>& hosts,
                         const std::optional<SharedKey>& key, Console& console);

// Judges `report` against the --baseline read before the sweep, prints its summary and writes
// the files --format and --output ask for; returns the exit status (0 pass, 1 fail, 2 a report
// already judged against a baseline, 3 a passing report that could not be written).
int report_sweep(const SweepOptions& options, const std::optional<SweepReport>& baseline,
                 SweepReport& report, Console& console);

Command add_sweep_command(CLI::App& app);

}  // namespace ibkit
