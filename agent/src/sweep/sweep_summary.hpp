#pragma once

#include <cstddef>
#include <string>

#include "model/sweep_report.hpp"
#include "sweep/coordinator.hpp"

namespace ibkit {

// How a finished sweep went, in one line for a terminal (outside text as terminal_safe shows
// it): pattern, nodes, rounds, pairs by status, wall time and the mean and longest pair time,
// and the nodes it did not test ("; FAIL: 2 of 4 nodes untested (in no pair that ran): h2, h3",
// untested_text). render_sweep_text lists what failed.
std::string sweep_headline(const SweepReport& report);

// "round 3/15, 24/120 pairs, 1 bad, 12 s, ETA 40 s" (with "retest" in place of "round").
std::string progress_line(const SweepProgress& progress);

// The nodes behind the figures, or "" when all is well and nothing is awaited: "waiting 12 s for
// n1-n2, n3-n4; silent: n5; pairs not passing: n3 (2), n7 (1)", each list cut after `most`
// names ("and 3 more"), as terminal_safe shows them.
std::string progress_nodes(const SweepProgress& progress, std::size_t most = 4);

}  // namespace ibkit
