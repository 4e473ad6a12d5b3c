#include "model/sweep_report.hpp"

#include <algorithm>

#include "model/check_report.hpp"

namespace ibkit {

std::string_view pair_status_name(PairStatus status) {
  switch (status) {
    case PairStatus::kPass:
      return "pass";
    case PairStatus::kSlow:
      return "slow";
    case PairStatus::kFailed:
      return "failed";
    case PairStatus::kTimedOut:
      return "timed_out";
    case PairStatus::kUnreachable:
      return "unreachable";
    case PairStatus::kNotRun:
      return "not_run";
  }
  return "unknown";
}

std::string pair_rules_name(const PairRules& rules) {
  if (!rules.recorded) return "not recorded";
  if (rules.threshold && rules.fleet) return "threshold+fleet";
  if (rules.threshold) return "threshold";
  if (rules.fleet) return "fleet";
  return "none";
}

bool sweep_failed(const SweepReport& report) {
  auto pair_bad = [](const SweepPair& pair) { return pair.status != PairStatus::kPass; };
  auto check_bad = [](const CheckReport& check) { return any_failed(check.results); };
  return std::any_of(report.pairs.begin(), report.pairs.end(), pair_bad) ||
         !report.blamed.empty() ||
         std::any_of(report.node_checks.begin(), report.node_checks.end(), check_bad);
}

}  // namespace ibkit
