#include "report/worst_pairs.hpp"

#include <algorithm>

namespace ibkit {
namespace {

// Lower is listed first.
int listing_rank(PairStatus status) {
  switch (status) {
    case PairStatus::kFailed:
      return 0;
    case PairStatus::kTimedOut:
      return 1;
    case PairStatus::kUnreachable:
      return 2;
    case PairStatus::kSlow:
      return 3;
    case PairStatus::kNotRun:
      return 4;
    case PairStatus::kPass:
      break;
  }
  return 5;
}

}  // namespace

WorstPairs worst_pairs(const SweepReport& report, std::size_t limit) {
  WorstPairs worst;
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kPass) worst.listed.push_back(&pair);
  }
  worst.total = worst.listed.size();
  std::stable_sort(worst.listed.begin(), worst.listed.end(),
                   [](const SweepPair* x, const SweepPair* y) {
                     return listing_rank(x->status) < listing_rank(y->status);
                   });
  if (worst.listed.size() > limit) worst.listed.resize(limit);
  return worst;
}

}  // namespace ibkit
