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
  int with_blamed = 0;  // of the pairs that did not pass, those whose other end is blamed
  std::optional<double> worst_latency_us, median_latency_us;
  std::optional<double> worst_bandwidth_gbps, median_bandwidth_gbps;
  std::optional<std::string> blamed;  // the reason, when the sweep blamed the node
  std::optional<bool> check_failed;   // unset when no check report was merged for it
};

// A node that is neither blamed nor failed its checks, whose pairs that did not pass are all
// with blamed nodes: it suffered the fault rather than caused it.
bool only_a_victim(const NodeSummary& summary);

// One summary per node of report_nodes(), worst first: blamed nodes, then those whose checks
// failed, then those with a pair that did not pass other than with a blamed node (before the
// victims), then by broken, slow and not-run pairs (most first), then by worst latency; nodes
// that tie keep the hosts file's order.
std::vector<NodeSummary> node_summaries(const SweepReport& report);

}  // namespace ibkit
