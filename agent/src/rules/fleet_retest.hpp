#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/sweep_report.hpp"
#include "rules/fleet_verdict.hpp"

namespace ibkit {

// The fleet rule's verdicts on the first attempts of a sweep's rounds, by pair index (judge_fleet
// before any retest): which pairs were far from the fleet, and in which figures.
struct FleetFirstAttempts {
  std::vector<FleetVerdict> verdicts;

  // Whether pair `index` was far from the fleet in any figure.
  bool far(std::size_t index) const;
  // Whether pair `index` was far in `figure` (the same subject, latency or bandwidth).
  bool far_in(std::size_t index, const FleetFigure& figure) const;
};

// A node the sweep gave up on (silenced), by name: no control is measured through it.
using NodeSilenced = std::function<bool(const std::string& node)>;

// A control for far pair `index` (one first.far(index)): a pair of the rounds on its rail whose
// tests ran, that measured the figure the rule found far without being far in it, nearest the
// fleet's typical one; one sharing no node with the pair first, so that both can run at once.
// nullopt when no pair qualifies.
std::optional<std::size_t> fleet_control_for(const SweepReport& report,
                                             const FleetFirstAttempts& first, std::size_t index,
                                             const NodeSilenced& silenced);

// Judges every retested pair (`retested`, by index) against the fleet's typical figures of the
// first attempts. A pair the rule found far stays slow only when its retest is far too, as
// confirm_with_control weighs it with the control measured with it (`controls`, by the far
// pair's index), and then says it was slow on both attempts; a pair retested for another cause
// is judged on its retest alone.
void judge_fleet_retests(SweepReport& report, const std::vector<std::size_t>& retested,
                         const FleetFirstAttempts& first,
                         const std::map<std::size_t, SweepPair>& controls, int rails,
                         const FleetFactors& factors);

}  // namespace ibkit
