#pragma once

#include <cstddef>
#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

inline constexpr const char* kSummarySchema = "ibkit.summary/1";
// The most pairs, and failed checks, summary.json names; the rest are counted.
inline constexpr std::size_t kMaxSummaryItems = 50;

// summary.json: {"schema": "ibkit.summary/1", "verdict", "generated_at", "baseline" (when the
// run was judged against one: what changed since, first), "nodes", "pairs", "counts", "blamed",
// "failed_checks" and "worst_pairs" (the first kMaxSummaryItems, in pair_status_rank order) with
// "more_failed_checks" and "more_pairs"}: what wording a verdict needs, a few KB however large the
// sweep, for a reader that should not load report.json (docs/verdicts.md).
std::string render_verdict_summary_json(const SweepReport& report);

}  // namespace ibkit
