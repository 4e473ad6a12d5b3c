#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// The fleet rule's slow line for one test, size and rail, drawn from how far the fleet's own
// healthy figures spread (docs/verdicts.md, "How tight the line is").

// One figure of a fleet and the nodes it was measured between: `from` sends (a bandwidth's way,
// or a one-way test's first node), `to` receives. A latency has no direction.
struct FleetSample {
  double value = 0;
  std::string from;
  std::string to;
  bool directed = false;
};

// The tightest lines the rule draws, however quiet the fleet: a bandwidth 20% below, a latency
// 25% above its typical figure. Placement, NUMA and PCIe make that much between healthy pairs
// of a real fabric, which no quiet sweep has to be told again.
inline constexpr double kFleetTightestBandwidthRatio = 0.8;
inline constexpr double kFleetTightestLatencyRatio = 1.25;

// Fills reference.line, basis, spread and spread_ways from the figures of its fleet (its
// typical figure already set). The spread is learned robustly: the node whose figures are
// lowest is set apart and its ways out, its ways in and every other way are each centred on
// their own median, so that one bad node, slow one way or both, does not widen it. The line is
// drawn that many spreads below the typical figure (above, for a latency) as no healthy figure
// of a sweep of this size reaches but about once in a thousand sweeps, further with few figures
// (the spread itself is then uncertain), never tighter than the tightest lines above nor looser
// than the factors. With too few figures (fewer than 6 beyond the groups' centres) the line is
// the factor; a pinned factor is the line whatever the spread.
void draw_fleet_line(FleetReference& reference, const std::vector<FleetSample>& samples,
                     const FleetFactors& factors);

// A node's ways judged together need this many figures.
inline constexpr std::size_t kFleetMinNodeWays = 4;

// The line a node's ways are held to together: the square root of the line (half as far on a
// log scale), never tighter than the tightest line.
double node_line_ratio(double line, bool latency);

// Fills reference.low_senders and low_receivers: with a line drawn from the spread, a node
// whose every way out (or in), at least kFleetMinNodeWays of them, is past node_line_ratio is
// slow as a node, even where no way alone passes the line. A latency has no direction: its node
// is a sender. Nothing with the factors' line.
void find_low_nodes(FleetReference& reference, const std::vector<FleetSample>& samples);

// The ratio to the typical figure that judges a figure of `reference`: its line, or the factor
// for a reference without one (a report from before lines were drawn).
double fleet_line_ratio(const FleetReference& reference, const FleetFactors& factors);

// The node `sample` is held to as a node when its ways are all low together (the square root of
// the line then judges it): "n1 sends", "n1 receives", "n1"; "" when none.
std::string low_node_of(const FleetReference& reference, const FleetSample& sample);

// Which line judged and why: "slow below 0.78x: the fleet's healthy ways agree within +-4% (12
// ways)", "slow above 3x, the loosest line: ...", "slow below 0.33x: too few ways to know the
// fleet's spread (2)", "slow below 0.5x, as [thresholds] fleet_min_bandwidth_ratio pins it".
std::string fleet_line_text(const FleetReference& reference, const FleetFactors& factors);

}  // namespace ibkit
