#include "report/baseline_lines.hpp"

#include "util/text.hpp"

namespace ibkit {

std::string baseline_headline(const BaselineComparison& baseline) {
  return "Since the baseline of " + baseline.generated_at + " (" + baseline.file + ", factor " +
         format_number(baseline.factor) +
         "): " + count_of(baseline.regressions.size(), "typical figure", "typical figures") +
         " regressed, " + std::to_string(baseline.pairs_regressed) + " of " +
         count_of(baseline.pairs_compared, "pair", "pairs") + " compared regressed.";
}

std::vector<std::string> baseline_lines(const BaselineComparison& baseline) {
  std::vector<std::string> lines{baseline_headline(baseline)};
  for (const auto& regression : baseline.regressions) lines.push_back("regressed: " + regression);
  lines.insert(lines.end(), baseline.changes.begin(), baseline.changes.end());
  for (const auto& reason : baseline.not_compared) lines.push_back("not compared: " + reason);
  return lines;
}

}  // namespace ibkit
