#include "rules/fleet_retest.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ibkit {

bool FleetFirstAttempts::far(std::size_t index) const {
  return index < verdicts.size() && !verdicts[index].shortfalls.empty();
}

bool FleetFirstAttempts::far_in(std::size_t index, const FleetFigure& figure) const {
  if (index >= verdicts.size()) return false;
  const auto& shortfalls = verdicts[index].shortfalls;
  return std::any_of(shortfalls.begin(), shortfalls.end(), [&](const FleetShortfall& shortfall) {
    return shortfall.figure.subject == figure.subject && shortfall.figure.latency == figure.latency;
  });
}

std::optional<std::size_t> fleet_control_for(const SweepReport& report,
                                             const FleetFirstAttempts& first, std::size_t index,
                                             const NodeSilenced& silenced) {
  const SweepPair& suspect = report.pairs[index];
  const FleetShortfall& shortfall = first.verdicts[index].shortfalls.front();
  std::optional<std::size_t> best;
  std::pair<bool, double> best_score{false, 0};
  for (std::size_t i = 0; i < first.verdicts.size(); ++i) {
    const SweepPair& pair = report.pairs[i];
    // A pair slow by the fleet rule alone, for another figure, can still measure this one.
    const bool ran =
        pair.status == PairStatus::kPass ||
        (pair.status == PairStatus::kSlow && pair.rules.fleet && !pair.rules.threshold);
    if (i == index || pair.rail != suspect.rail || !ran || silenced(pair.a) || silenced(pair.b)) {
      continue;
    }
    for (const auto& figure : fleet_figures(pair)) {
      if (figure.subject != shortfall.figure.subject ||
          figure.latency != shortfall.figure.latency || !(figure.value > 0) ||
          first.far_in(i, figure)) {
        continue;
      }
      const bool shares =
          pair.a == suspect.a || pair.a == suspect.b || pair.b == suspect.a || pair.b == suspect.b;
      // Sharing no node first, then the figure nearest the typical one (by ratio).
      const std::pair<bool, double> score{shares,
                                          std::abs(std::log(figure.value / shortfall.typical))};
      if (!best || score < best_score) {
        best = i;
        best_score = score;
      }
    }
  }
  return best;
}

void judge_fleet_retests(SweepReport& report, const std::vector<std::size_t>& retested,
                         const FleetFirstAttempts& first,
                         const std::map<std::size_t, SweepPair>& controls, int rails,
                         const FleetFactors& factors) {
  if (!report.fleet) return;
  for (std::size_t index : retested) {
    SweepPair& pair = report.pairs[index];
    FleetVerdict verdict = fleet_verdict(pair, report.fleet->references, factors);
    const bool was_far = first.far(index);
    if (was_far) {
      if (auto found = controls.find(index); found != controls.end()) {
        verdict = confirm_with_control(verdict, found->second, rails);
      }
    }
    const bool passed = pair.status == PairStatus::kPass;
    apply_fleet_verdict(pair, verdict);
    if (was_far && passed && pair.status == PairStatus::kSlow) pair.reason += ", on both attempts";
  }
}

}  // namespace ibkit
