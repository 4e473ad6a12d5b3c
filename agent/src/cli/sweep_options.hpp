#pragma once

#include <cstdint>
#include <string>

#include "cli/baseline_option.hpp"
#include "cli/workload_options.hpp"
#include "control/channel.hpp"

namespace ibkit {

// `ibkit sweep`'s options, as parsed.
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

}  // namespace ibkit
