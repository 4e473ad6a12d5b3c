#pragma once

#include <cstddef>
#include <string>

#include "model/check_report.hpp"
#include "model/check_result.hpp"
#include "report/text_table.hpp"

namespace ibkit {

// Aligned columns within `width` (a long cell wraps inside its column), a hint under every
// result that is not a pass, then a summary line ("PASS: ..." or "FAIL: ..."): the table every
// text report ends with.
std::string render_results_table(const CheckResults& results, bool colour,
                                 std::size_t width = kReportWidth);

// The node's header line, then the results table. ANSI colour only when `colour` is set, and
// `width` the terminal's (the caller knows whether it writes to a terminal).
std::string render_check_text(const CheckReport& report, bool colour,
                              std::size_t width = kReportWidth);

}  // namespace ibkit
