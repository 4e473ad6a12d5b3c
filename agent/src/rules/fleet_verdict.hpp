#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// The fleet-relative rule (docs/verdicts.md): a pair far from what the fleet reaches for the
// same test, size and rail is slow, with or without [thresholds].

// One figure of a pair that the rule compares: the typical latency of a latency test's smallest
// size (with its minimum) and its p99 (the tail, from 100 round trips up), the bandwidth of a
// bandwidth test's largest size, or a TCP test's Gb/s.
struct FleetFigure {
  std::string subject;   // the test, its options and size: "bw write 2 QPs 1048576 B"
  bool latency = false;  // us, lower is better; else Gb/s, higher is better
  double value = 0;
  double floor = 0;  // a latency's minimum; 0 when not known
  // One way of a bidirectional bandwidth test, "lab1 -> lab3"; "" for any other figure. Both
  // ways share the subject ("... each way") and so the fleet's typical figure.
  std::string direction{};
  // A latency's p99: far only kFleetMinTailExcessUs above the fleet's (a median: 1 us).
  bool tail = false;
};

// The finite figures of the pair's tests that ran to the end; none for a pair that neither
// passed nor was slow (a failed pair's figures are not compared). A bidirectional bandwidth
// test that measured each way gives a figure per way instead of their sum, which would hide a
// node slow in one direction behind its healthy other one.
std::vector<FleetFigure> fleet_figures(const SweepPair& pair);

// For every test, size and rail measured by at least 3 nodes (for a latency, its median and its
// minimum each on their own): each node's upper-quartile figure
// over its pairs (its ceil(m/4)-th best of m; its best when it has up to 4), then the median of
// those over the nodes (the better of the two middle ones for an even count). A node in most
// pairs with a bad node still has a good figure in its best quarter, so one bad node of three
// does not move the typical figure; a node's quarter is not its best, so from 5 pairs a node up
// a few lucky pairs do not either.
// Each reference's line is drawn from its figures (rules/fleet_line.hpp) within `factors`.
std::vector<FleetReference> fleet_baseline(const SweepReport& report, const FleetFactors& factors);

// One figure of a pair too far from what it was compared with.
struct FleetShortfall {
  FleetFigure figure;
  double typical = 0;        // the fleet's typical figure
  double typical_floor = 0;  // and its typical minimum, for a latency (0: not known)
  double line = 0;           // the ratio to `typical` it was judged by
  std::string text;  // "bw write 1048576 B: 9 Gb/s is 0.1x the fleet's typical 90 Gb/s (...)"
};

// How the pair's figures compare with the references.
struct FleetVerdict {
  bool judged = false;  // at least one of its figures had a reference
  std::vector<FleetShortfall> shortfalls;
};

// A bandwidth below its reference's line (a ratio to the typical figure), or a latency above
// it (and kFleetMinLatencyExcessUs above it) whose
// minimum is also above that line x the reference's typical minimum, is a shortfall. The
// minimum keeps a burst of scheduling noise, which moves a median but not the floor, from being
// taken for a slow path, which moves both. A reference without a line (an older report) is
// held to the factors. Pure; nothing judged when the rule is off.
FleetVerdict fleet_verdict(const SweepPair& pair, const std::vector<FleetReference>& references,
                           const FleetFactors& factors);

// The shortfalls of `verdict` that `control` confirms: `control` is a pair that was not far,
// measured at the same time as the pair (beside it, or right after it), and a shortfall stands
// only when the pair's figure is also clearly worse than the control's: beyond the square root
// of the line it fell short of (below 0.57x the control's bandwidth for a 0.33x line),
// the root because the control is one measurement, as noisy as the pair's, not the fleet. When
// the control is itself far from the fleet's typical figure, the moment was slow for everyone
// (a busy machine, a congested fabric) or the typical figure came from a lucky pair, and the pair
// must be beyond the full line from the control. A shortfall the control has no figure for
// stands. Each text names the control's figure.
FleetVerdict confirm_with_control(const FleetVerdict& verdict, const SweepPair& control, int rails);

// Records a verdict in the pair: a pass with shortfalls becomes slow, its reason "fleet: ...";
// a slow pair keeps its reason and adds the rule and "; fleet: ..."; a pass the rule judged
// names the rule. Other statuses keep their status and reason, without the rule. Applying the
// same verdict twice changes nothing.
void apply_fleet_verdict(SweepPair& pair, const FleetVerdict& verdict);

// The rule over a whole sweep at once: computes the baseline, applies every pair's verdict and
// records the judgment in report.fleet. Returns each pair's verdict (by index).
std::vector<FleetVerdict> judge_fleet(SweepReport& report, const FleetFactors& factors);

}  // namespace ibkit
