#include "report/first_causes.hpp"

#include <vector>

#include "report/sweep_matrix.hpp"
#include "report/worst_pairs.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kChecksNamed = 2;

// "memlock process: soft 64 KiB, hard 64 KiB (expected unlimited)".
std::string failed_check_text(const CheckResult& result) {
  return result.id + " " + result.subject + ": " + result.observed + " (expected " +
         result.expected + ")";
}

// The first failed results of `results` ("" when none failed), and how many failed.
struct FailedChecks {
  std::string text;
  std::size_t count = 0;
};

FailedChecks failed_checks(const CheckResults& results) {
  std::vector<std::string> failed;
  for (const auto& result : results) {
    if (result.status == Status::kFail) failed.push_back(failed_check_text(result));
  }
  if (failed.empty()) return {};
  return {join_capped(failed, kChecksNamed, "; "), failed.size()};
}

}  // namespace

std::string blame_with_checks(const SweepReport& report, const NodeBlame& blame) {
  for (const auto& check : report.node_checks) {
    if (check.host != blame.node) continue;
    const FailedChecks failed = failed_checks(check.results);
    if (failed.count == 0) continue;
    return blame.reason + (failed.count == 1 ? "; its failed check: " : "; its failed checks: ") +
           failed.text;
  }
  return blame.reason;
}

std::string first_cause(const SweepReport& report) {
  if (!sweep_failed(report)) return "";
  if (!report.blamed.empty()) {
    const NodeBlame& first = report.blamed.front();
    return first.node + " blamed: " + blame_with_checks(report, first) +
           (report.blamed.size() > 1
                ? " (and " + count_of(report.blamed.size() - 1, "more node", "more nodes") +
                      " blamed)"
                : std::string());
  }
  if (!report.blamed_links.empty()) {
    const LinkBlame& first = report.blamed_links.front();
    return "link " + first.link + " blamed: " + first.reason;
  }
  if (report.baseline && !report.baseline->regressions.empty()) {
    const auto& regressions = report.baseline->regressions;
    return "regressed since the baseline of " + report.baseline->generated_at + ": " +
           regressions.front() +
           (regressions.size() > 1
                ? " (and " + count_of(regressions.size() - 1, "more figure", "more figures") + ")"
                : std::string());
  }
  const auto worst = worst_pairs(report, 1);
  if (worst.total > 0) {
    const SweepPair& pair = *worst.listed.front();
    return pair_label(pair, report.rails) + " " + std::string(pair_status_name(pair.status)) +
           ": " + pair.reason +
           (worst.total > 1
                ? " (" + count_of(worst.total - 1, "more pair", "more pairs") + " did not pass)"
                : std::string());
  }
  for (const auto& check : report.node_checks) {
    const FailedChecks failed = failed_checks(check.results);
    if (failed.count > 0) return "checks on " + check.host + " failed: " + failed.text;
  }
  for (const auto& fabric : report.fabric_checks) {
    const FailedChecks failed = failed_checks(fabric.results);
    if (failed.count > 0) return "fabric from " + fabric_origin(fabric) + ": " + failed.text;
  }
  return untested_text(report);  // every pair passed, but not every node was in one
}

}  // namespace ibkit
