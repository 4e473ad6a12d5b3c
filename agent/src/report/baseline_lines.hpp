#pragma once

#include <string>
#include <vector>

#include "model/baseline_comparison.hpp"

namespace ibkit {

// What changed since the baseline, as the lines every format shows first: one that names the
// baseline, its date and factor and the counts, then "regressed: ..." for each typical figure
// that regressed, the other changes, and "not compared: ..." for what could not be.
std::vector<std::string> baseline_lines(const BaselineComparison& baseline);

// The first line alone: "Since the baseline of 2026-11-28T02:28:03Z (reports/baseline/report.json,
// factor 1.25): 1 typical figure regressed, 3 of 3 pairs compared regressed."
std::string baseline_headline(const BaselineComparison& baseline);

}  // namespace ibkit
