#pragma once

#include <cstddef>
#include <string>

#include "model/pair_report.hpp"
#include "report/text_table.hpp"

namespace ibkit {

// perftest-style tables per test, then the verdict table within `width`.
std::string render_pair_text(const PairReport& report, bool colour,
                             std::size_t width = kReportWidth);

}  // namespace ibkit
