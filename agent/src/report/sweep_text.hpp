#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// For a terminal: blamed nodes, every pair that did not pass, the check table of every node
// that failed, then the verdict line. ANSI colour only when `colour` is set.
std::string render_sweep_text(const SweepReport& report, bool colour);

}  // namespace ibkit
