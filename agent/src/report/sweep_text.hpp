#pragma once

#include <cstddef>
#include <string>

#include "model/sweep_report.hpp"
#include "report/text_table.hpp"

namespace ibkit {

// For a terminal: blamed nodes, every pair that did not pass, the check table of every node
// that failed, then the verdict line, a long reason or cell wrapped to `width` columns. ANSI
// colour only when `colour` is set.
std::string render_sweep_text(const SweepReport& report, bool colour,
                              std::size_t width = kReportWidth);

}  // namespace ibkit
