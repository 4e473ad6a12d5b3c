#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// JUnit XML: a testsuite "ibkit.pairs" with a testcase per pair, and one per node with its
// blame and its check results (none for a node with neither), so each failure counts once.
std::string render_sweep_junit(const SweepReport& report);

}  // namespace ibkit
