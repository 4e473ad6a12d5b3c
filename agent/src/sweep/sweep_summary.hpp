#pragma once

#include <string>

#include "sweep/coordinator.hpp"
#include "sweep/sweep_report.hpp"

namespace ibkit {

// The console view of a finished sweep: one headline with the counts, a line per blamed node,
// a line per pair that is not a pass ("failed  n3 -> n5 rail 0, round 4: reason"), the verdict.
std::string render_sweep_summary(const SweepReport& report);

// "round 3/15, 24/120 pairs, 1 bad, 12 s, ETA 40 s" (with "retest" in place of "round").
std::string progress_line(const SweepProgress& progress);

}  // namespace ibkit
