#include "report/sweep_junit.hpp"

#include <unordered_map>
#include <vector>

#include "model/sweep_report.hpp"
#include "report/junit.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_rules.hpp"

namespace ibkit {
namespace {

// A pair as one testcase of a node's suite; anything but a pass fails, as it fails the verdict,
// and a pass no rule judged is a warning that says so.
CheckResult pair_result(const SweepPair& pair, int rails) {
  const bool passed = pair.status == PairStatus::kPass;
  const std::string status(pair_status_name(pair.status));
  CheckResult result{"sweep.pair",
                     pair_label(pair, rails),
                     passed ? Status::kPass : Status::kFail,
                     status + ": " + pair_summary(pair),
                     "pass",
                     passed ? "" : status + ": " + pair.reason};
  if (passed_unjudged(pair)) {
    result.status = Status::kWarn;
    result.hint =
        "no rule judged its figures: set [thresholds], or sweep 3 nodes or more for the fleet rule";
  }
  return result;
}

}  // namespace

std::string render_sweep_junit(const SweepReport& report) {
  // Each node's pairs found in one pass: scanning every pair for every node took 10 s of the
  // 1,024-node report.
  std::unordered_map<std::string, std::vector<const SweepPair*>> pairs_of;
  for (const auto& pair : report.pairs) {
    pairs_of[pair.a].push_back(&pair);
    if (pair.b != pair.a) pairs_of[pair.b].push_back(&pair);
  }
  JunitCounts totals;
  std::string suites;
  for (const auto& node : report_nodes(report)) {
    CheckResults results;
    std::vector<double> seconds;
    for (const auto& blame : report.blamed) {
      if (blame.node != node) continue;
      results.push_back({"sweep.blame", node, Status::kFail, "blamed for its pairs", "not blamed",
                         "blamed: " + blame.reason});
      seconds.push_back(0);
    }
    for (const SweepPair* pair : pairs_of[node]) {
      results.push_back(pair_result(*pair, report.rails));
      seconds.push_back(pair->seconds);
    }
    for (const auto& check : report.node_checks) {
      if (check.host != node) continue;
      results.insert(results.end(), check.results.begin(), check.results.end());
    }
    const JunitCounts counts = junit_counts(results);
    totals.tests += counts.tests;
    totals.failures += counts.failures;
    totals.skipped += counts.skipped;
    suites += junit_testsuite("ibkit.sweep", node, report.generated_at, results, seconds);
  }
  for (const auto& fabric : report.fabric_checks) {
    const JunitCounts counts = junit_counts(fabric.results);
    totals.tests += counts.tests;
    totals.failures += counts.failures;
    totals.skipped += counts.skipped;
    suites +=
        junit_testsuite("ibkit.fabric", "fabric from " + fabric_origin(fabric), fabric.generated_at,
                        fabric.results, std::vector<double>(fabric.results.size(), 0.0));
  }
  return junit_document("ibkit.sweep", totals, suites);
}

}  // namespace ibkit
