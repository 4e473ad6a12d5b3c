#pragma once

#include <string>
#include <vector>

#include "model/sweep_report.hpp"

namespace ibkit {

// How a sweep's pairs were judged (docs/verdicts.md), as sentences every format shows: the rules
// that decided the pairs that passed or were slow, the fleet rule's factors and typical figures
// (or why it did not apply), and a warning when pairs passed that no rule judged. Empty for a
// report without pairs.
std::vector<std::string> judgment_lines(const SweepReport& report);

// Whether a pair passed without any rule judging its figures (no threshold, fleet or baseline).
bool passed_unjudged(const SweepPair& pair);

}  // namespace ibkit
