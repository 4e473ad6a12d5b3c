#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// The page's node table: one row per node, worst first (node_summaries()), with its pairs,
// how many broke, were slow or did not run, the worst and median latency and bandwidth of its
// pairs, why it was blamed and its checks' verdict. Rows of blamed nodes, failed checks or
// broken pairs are red, of slow or not-run pairs amber. In a box that scrolls, so 1,024 rows
// do not push the rest of the page away. "" for a report without nodes.
std::string html_node_table(const SweepReport& report);

}  // namespace ibkit
