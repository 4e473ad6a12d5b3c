#include "model/pair_warnings.hpp"

namespace ibkit {

std::vector<PairWarning> warned_pairs(const SweepReport& report) {
  std::vector<PairWarning> warned;
  for (const auto& pair : report.pairs) {
    PairWarning warning{&pair, {}};
    for (const auto& result : pair.report ? pair.report->results : pair.warnings) {
      if (result.status == Status::kWarn) warning.results.push_back(&result);
    }
    if (!warning.results.empty()) warned.push_back(std::move(warning));
  }
  return warned;
}

}  // namespace ibkit
