#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// JUnit XML: a testsuite per node, a testcase per pair the node is in and per check result.
std::string render_sweep_junit(const SweepReport& report);

}  // namespace ibkit
