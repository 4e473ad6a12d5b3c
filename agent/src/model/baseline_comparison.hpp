#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ibkit {

// By default a figure more than 1.25x worse than the baseline's is a regression: a latency above
// 1.25x, a bandwidth below 1/1.25 = 0.8x (docs/verdicts.md).
inline constexpr double kDefaultBaselineFactor = 1.25;
// The factor's range: a factor of 1 would fail any figure a hair worse than the baseline's.
inline constexpr double kMinBaselineFactor = 1.01;
inline constexpr double kMaxBaselineFactor = 100;

// What a run was judged against with --baseline: an earlier run's report.json, and what changed
// since (rules/baseline_rule.hpp). Pairs whose figures regressed are slow by the baseline rule
// (PairRules::baseline), their reasons naming both figures; what the run as a whole lost is in
// `regressions`, which fail it on their own.
struct BaselineComparison {
  std::string file;          // as given
  std::string generated_at;  // the baseline run's
  double factor = kDefaultBaselineFactor;
  // The fleet's typical figures (per test, size and rail) worse than the baseline's by the
  // factor: "lat send 2 B rail 0: the fleet's typical 1500 us is 3.0x the baseline's 500 us".
  std::vector<std::string> regressions;
  std::size_t pairs_regressed = 0;  // pairs the baseline rule made slow
  std::size_t pairs_compared = 0;   // pairs with a figure compared with the baseline's
  // What else changed, worst first: pairs and checks that fail now and passed then, the reverse,
  // nodes gone and new, typical figures better by the factor.
  std::vector<std::string> changes;
  // Why figures were not compared: "the baseline's bandwidth is of bw write 65536 B, now of ...".
  std::vector<std::string> not_compared;
};

}  // namespace ibkit
