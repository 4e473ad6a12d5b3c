#include "report/worst_pairs.hpp"

#include <algorithm>

namespace ibkit {
WorstPairs worst_pairs(const SweepReport& report, std::size_t limit) {
  WorstPairs worst;
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kPass) worst.listed.push_back(&pair);
  }
  worst.total = worst.listed.size();
  std::stable_sort(worst.listed.begin(), worst.listed.end(),
                   [](const SweepPair* x, const SweepPair* y) {
                     return pair_status_rank(x->status) < pair_status_rank(y->status);
                   });
  if (worst.listed.size() > limit) worst.listed.resize(limit);
  return worst;
}

}  // namespace ibkit
