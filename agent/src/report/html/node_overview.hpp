#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/sweep_report.hpp"

namespace ibkit {

// What one node's pairs (on every rail) and its own checks came to: a row of the page's node
// table.
struct NodeSummary {
  std::string node;
  int pairs = 0;
  int broken = 0;  // failed, timed out or unreachable
  int slow = 0;
  int not_run = 0;
  std::optional<double> worst_latency_us, median_latency_us;
  std::optional<double> worst_bandwidth_gbps, median_bandwidth_gbps;
  std::optional<std::string> blamed;  // the reason, when the sweep blamed the node
  std::optional<bool> check_failed;   // unset when no check report was merged for it
};

// One summary per node of report_nodes(), worst first: blamed nodes, then those whose checks
// failed, then by broken, slow and not-run pairs (most first), then by worst latency; nodes
// that tie keep the hosts file's order.
std::vector<NodeSummary> node_summaries(const SweepReport& report);

}  // namespace ibkit
