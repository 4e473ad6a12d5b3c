#pragma once

#include <cstddef>
#include <vector>

#include "model/sweep_report.hpp"

namespace ibkit {

// How many non-passing pairs the page lists: enough to see a pattern, few enough to read;
// report.json has them all.
inline constexpr std::size_t kListedPairs = 200;

// The pairs that did not pass, worst first (failed, timed out, unreachable, slow, not run;
// the sweep's order within each), at most `limit` of them, and how many there were.
struct WorstPairs {
  std::vector<const SweepPair*> listed;
  std::size_t total = 0;
};
WorstPairs worst_pairs(const SweepReport& report, std::size_t limit);

}  // namespace ibkit
