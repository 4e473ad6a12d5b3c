#pragma once

#include <string>

#include "model/sweep_report.hpp"
#include "sweep/coordinator.hpp"

namespace ibkit {

// How a finished sweep went, in one line: pattern, nodes, rounds, pairs by status, wall time and
// the mean and longest pair time. render_sweep_text lists what failed.
std::string sweep_headline(const SweepReport& report);

// "round 3/15, 24/120 pairs, 1 bad, 12 s, ETA 40 s" (with "retest" in place of "round").
std::string progress_line(const SweepProgress& progress);

}  // namespace ibkit
