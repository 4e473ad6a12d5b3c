#include "report/sweep_junit.hpp"

#include <vector>

#include "model/sweep_report.hpp"
#include "report/junit.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_rules.hpp"

namespace ibkit {
namespace {

// A pair as one testcase of the pairs' suite; anything but a pass fails, as it fails the verdict,
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
  JunitCounts totals;
  std::string suites;
  const auto add_suite = [&](const std::string& name, const std::string& host,
                             const std::string& timestamp, const CheckResults& results,
                             const std::vector<double>& seconds) {
    const JunitCounts counts = junit_counts(results);
    totals.tests += counts.tests;
    totals.failures += counts.failures;
    totals.skipped += counts.skipped;
    suites += junit_testsuite(name, host, timestamp, results, seconds);
  };
  // Every pair once, in a suite of its own ("ibkit.pairs", apart from any node's): in both of its
  // nodes' suites, a CI dashboard that sums the suites counted each bad pair twice.
  if (!report.pairs.empty()) {
    CheckResults results;
    std::vector<double> seconds;
    results.reserve(report.pairs.size());
    seconds.reserve(report.pairs.size());
    for (const auto& pair : report.pairs) {
      results.push_back(pair_result(pair, report.rails));
      seconds.push_back(pair.seconds);
    }
    add_suite("ibkit", "pairs", report.generated_at, results, seconds);  // "ibkit.pairs"
  }
  // A suite per node with what concerns it alone: its blame and its checks.
  for (const auto& node : report_nodes(report)) {
    CheckResults results;
    for (const auto& blame : report.blamed) {
      if (blame.node != node) continue;
      results.push_back({"sweep.blame", node, Status::kFail, "blamed for its pairs", "not blamed",
                         "blamed: " + blame.reason});
    }
    for (const auto& check : report.node_checks) {
      if (check.host != node) continue;
      results.insert(results.end(), check.results.begin(), check.results.end());
    }
    if (results.empty()) continue;
    add_suite("ibkit.sweep", node, report.generated_at, results,
              std::vector<double>(results.size(), 0.0));
  }
  for (const auto& fabric : report.fabric_checks) {
    add_suite("ibkit.fabric", "fabric from " + fabric_origin(fabric), fabric.generated_at,
              fabric.results, std::vector<double>(fabric.results.size(), 0.0));
  }
  return junit_document("ibkit.sweep", totals, suites);
}

}  // namespace ibkit
