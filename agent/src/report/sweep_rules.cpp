#include "report/sweep_rules.hpp"

#include <map>

#include "model/sweep_report.hpp"
#include "rules/fleet_line.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string rules_line(const SweepReport& report) {
  std::map<std::string, int> counts;
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kPass || pair.status == PairStatus::kSlow)
      ++counts[pair_rules_name(pair.rules)];
  }
  if (counts.empty()) return "";
  std::vector<std::string> parts;
  for (const auto& [name, count] : counts) parts.push_back(std::to_string(count) + " " + name);
  return "Rules that decided the pairs that passed or were slow: " + join(parts, ", ") + ".";
}

std::string reference_text(const FleetReference& reference, const FleetFactors& factors,
                           int rails) {
  return reference.subject + (rails > 1 ? " rail " + std::to_string(reference.rail) : "") + " " +
         format_number(reference.typical, reference.latency ? 2 : 3) +
         (reference.latency ? " us" : " Gb/s") + " (" + std::to_string(reference.nodes) +
         " nodes; " + fleet_line_text(reference, factors) + ")";
}

std::string fleet_line(const SweepReport& report) {
  if (!report.fleet)
    return "The fleet rule: not recorded (a report from before ibkit judged fleets).";
  const FleetJudgment& fleet = *report.fleet;
  if (!fleet.factors.on) return "The fleet rule: off ([thresholds] fleet = false).";
  if (fleet.references.empty()) {
    return "The fleet rule did not apply: it needs 3 nodes that measured the same test, size "
           "and rail.";
  }
  std::vector<std::string> typical;
  for (const auto& reference : fleet.references)
    typical.push_back(reference_text(reference, fleet.factors, report.rails));
  return "The fleet rule: slow past a line drawn from the fleet's own spread, no looser than " +
         format_number(fleet.factors.min_bandwidth_ratio) + "x its typical bandwidth or " +
         format_number(fleet.factors.max_latency_ratio) +
         "x its typical latency; typical: " + join(typical, ", ") + ".";
}

}  // namespace

bool passed_unjudged(const SweepPair& pair) {
  return pair.status == PairStatus::kPass && pair.rules.recorded && !pair.rules.threshold &&
         !pair.rules.fleet && !pair.rules.baseline;
}

std::vector<std::string> judgment_lines(const SweepReport& report) {
  if (report.pairs.empty()) return {};
  std::vector<std::string> lines;
  if (const std::string rules = rules_line(report); !rules.empty()) lines.push_back(rules);
  lines.push_back(fleet_line(report));
  int unjudged = 0;
  for (const auto& pair : report.pairs) unjudged += passed_unjudged(pair) ? 1 : 0;
  if (unjudged > 0) {
    lines.push_back("Warning: " + std::to_string(unjudged) + (unjudged == 1 ? " pair" : " pairs") +
                    " passed with no rule judging the figures: set [thresholds], or sweep 3 "
                    "nodes or more for the fleet rule.");
  }
  return lines;
}

}  // namespace ibkit
