#include "rules/fleet_line.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "rules/figure_text.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Figures beyond the groups' centres needed to learn a spread at all.
constexpr int kMinSpreadDegrees = 3;
// How rarely a healthy sweep may have a figure past the line: once in this many sweeps.
constexpr double kSweepsPerFalseAlarm = 1000;
// The line is never fewer spreads than this from the typical figure, however few the figures.
constexpr double kMinLineSpreads = 5.5;
// A link's two ways set apart were chosen as the lowest: they must be this much further past the
// rest's line than a figure judged by it (measured: +-40% uniform noise at 4 nodes, bench).
constexpr double kSetApartMargin = 1.3;
// The typical figure is a node's upper quartile's median: about this many spreads better than
// a healthy figure's median, so the line starts that much further out.
constexpr double kTypicalBiasSpreads = 0.7;

// How much better than typical a figure is, on a log scale: 0 at typical, negative when worse.
double log_ratio(double value, double typical, bool latency) {
  return latency ? std::log(typical / value) : std::log(value / typical);
}

double median(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

// z such that a standard normal exceeds it with probability `tail` (bisection: no hurry here).
double normal_upper_quantile(double tail) {
  double low = 0;
  double high = 40;
  for (int i = 0; i < 100; ++i) {
    const double z = (low + high) / 2;
    (0.5 * std::erfc(z / std::sqrt(2.0)) > tail ? low : high) = z;
  }
  return (low + high) / 2;
}

// How much further the line must go when the spread is known from `degrees` figures only:
// Student's t at 0.999 over the normal's (3.090), which is 1 for many figures.
double few_figures_factor(int degrees) {
  struct Row {
    int degrees;
    double t999;
  };
  static constexpr Row kTable[] = {{1, 318.3},   {2, 22.33},  {3, 22.20},  {4, 13.03},  {5, 9.678},
                                   {6, 5.208},   {7, 4.785},  {8, 4.501},  {9, 4.297},  {10, 4.144},
                                   {12, 3.930},  {15, 3.733}, {20, 3.552}, {30, 3.385}, {60, 3.232},
                                   {120, 3.160}, {121, 3.090}};
  double t = kTable[0].t999;
  for (const auto& row : kTable) {
    if (degrees >= row.degrees) t = row.t999;
  }
  return t / 3.090;
}

// The figures' spread (a standard deviation of their log ratios, `xs`) with the lowest node set
// apart: the node whose figures' median is lowest, its ways out and its ways in each a group,
// every other figure one more; each centred on its median. `degrees` is what is left after the
// centres.
struct Spread {
  double deviation = 0;
  int degrees = 0;
};

Spread robust_spread(const std::vector<FleetSample>& samples, const std::vector<double>& xs) {
  std::map<std::string, std::vector<double>> by_node;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    by_node[samples[i].from].push_back(xs[i]);
    by_node[samples[i].to].push_back(xs[i]);
  }
  std::string lowest;
  double lowest_level = 0;
  for (const auto& [node, values] : by_node) {
    const double level = median(values);
    if (lowest.empty() || level < lowest_level) {
      lowest = node;
      lowest_level = level;
    }
  }
  // 0: no part in the lowest node, 1: it sends (or, undirected, takes part), 2: it receives.
  std::vector<double> groups[3];
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& sample = samples[i];
    int group = 0;
    if (sample.from == lowest) group = 1;
    if (sample.to == lowest) group = sample.directed ? 2 : 1;
    groups[group].push_back(xs[i]);
  }
  double squares = 0;
  Spread spread;
  for (const auto& group : groups) {
    if (group.size() < 2) continue;
    const double centre = median(group);
    for (double x : group) squares += (x - centre) * (x - centre);
    spread.degrees += static_cast<int>(group.size()) - 1;
  }
  if (spread.degrees > 0) spread.deviation = std::sqrt(squares / spread.degrees);
  return spread;
}

double loosest_ratio(bool latency, const FleetFactors& factors) {
  return latency ? factors.max_latency_ratio : factors.min_bandwidth_ratio;
}

// How far past typical a line ratio is, on the log scale of log_ratio.
double log_distance(double line, bool latency) {
  return latency ? std::log(line) : -std::log(line);
}

struct DrawnLine {
  double ratio = 0;
  Spread spread;
};

// The line the figures' spread draws, within the tightest and the loosest ratio; none when they
// are too few to know the spread. `candidates`: how many figures of the sweep may cross it.
std::optional<DrawnLine> line_from(const std::vector<FleetSample>& samples,
                                   const std::vector<double>& xs, std::size_t candidates,
                                   bool latency, double loosest) {
  const Spread spread = robust_spread(samples, xs);
  if (spread.degrees < kMinSpreadDegrees) return std::nullopt;
  const double spreads =
      std::max(kMinLineSpreads,
               normal_upper_quantile(1 / (kSweepsPerFalseAlarm * static_cast<double>(candidates))) +
                   kTypicalBiasSpreads) *
      few_figures_factor(spread.degrees);
  const double margin = std::exp(spreads * spread.deviation);
  const double ratio = latency
                           ? std::clamp(margin, kFleetTightestLatencyRatio,
                                        std::max(loosest, kFleetTightestLatencyRatio))
                           : std::clamp(1 / margin, std::min(loosest, kFleetTightestBandwidthRatio),
                                        kFleetTightestBandwidthRatio);
  return DrawnLine{ratio, spread};
}

}  // namespace

void draw_fleet_line(FleetReference& reference, const std::vector<FleetSample>& samples,
                     const FleetFactors& factors) {
  const bool latency = reference.latency;
  const double loosest = loosest_ratio(latency, factors);
  reference.line = loosest;
  reference.basis = FleetLineBasis::kFactors;
  reference.spread = 0;
  reference.spread_ways = 0;
  if (latency ? factors.latency_pinned : factors.bandwidth_pinned) {
    reference.basis = FleetLineBasis::kPinned;
    return;
  }
  std::vector<FleetSample> usable;
  std::vector<double> xs;
  for (const auto& sample : samples) {
    if (!(sample.value > 0) || !(reference.typical > 0)) continue;
    usable.push_back(sample);
    xs.push_back(log_ratio(sample.value, reference.typical, latency));
  }
  reference.spread_ways = static_cast<int>(usable.size());
  auto drawn = line_from(usable, xs, xs.size(), latency, loosest);
  if (!drawn) return;
  // A bad link: its two ways are the lowest two figures, and they sit in the groups of the node
  // set apart, widening the spread they are judged by. Then the two are set apart as well, and
  // where the higher of them is past the line the rest's spread draws, that line judges (Rosner's
  // test for several outliers; the quantile stays the whole sweep's, every figure was a
  // candidate). Only the two ways of one pair: any two lowest figures set apart would flag a
  // heavy-tailed healthy fleet (the lab's latency) by the tight spread of what is left.
  if (xs.size() > 2) {
    std::vector<std::size_t> order(xs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                      [&](std::size_t a, std::size_t b) { return xs[a] < xs[b]; });
    const FleetSample& lowest = usable[order[0]];
    const FleetSample& next = usable[order[1]];
    if (lowest.directed && next.directed && lowest.from == next.to && lowest.to == next.from) {
      std::vector<FleetSample> rest;
      std::vector<double> rest_xs;
      for (std::size_t i = 0; i < xs.size(); ++i) {
        if (i == order[0] || i == order[1]) continue;
        rest.push_back(usable[i]);
        rest_xs.push_back(xs[i]);
      }
      auto without = line_from(rest, rest_xs, xs.size(), latency, loosest);
      if (without && xs[order[1]] < -kSetApartMargin * log_distance(without->ratio, latency)) {
        drawn = without;
        reference.spread_ways = static_cast<int>(rest.size());
      }
    }
  }
  reference.line = drawn->ratio;
  reference.basis = FleetLineBasis::kSpread;
  reference.spread = drawn->spread.deviation;
}

double node_line_ratio(double line, bool latency) {
  return latency ? std::max(std::sqrt(line), kFleetTightestLatencyRatio)
                 : std::min(std::sqrt(line), kFleetTightestBandwidthRatio);
}

void find_low_nodes(FleetReference& reference, const std::vector<FleetSample>& samples) {
  reference.low_senders.clear();
  reference.low_receivers.clear();
  if (reference.basis != FleetLineBasis::kSpread || !(reference.typical > 0)) return;
  const double root = node_line_ratio(reference.line, reference.latency);
  auto past_root = [&](double value) {
    return reference.latency ? value / reference.typical > root : value / reference.typical < root;
  };
  // node -> {ways, ways past the root}, sending and receiving
  std::map<std::string, std::pair<std::size_t, std::size_t>> sending;
  std::map<std::string, std::pair<std::size_t, std::size_t>> receiving;
  for (const auto& sample : samples) {
    const std::size_t low = past_root(sample.value) ? 1 : 0;
    auto count = [&](auto& counts, const std::string& node) {
      counts[node].first += 1;
      counts[node].second += low;
    };
    count(sending, sample.from);
    count(sample.directed ? receiving : sending, sample.to);
  }
  auto low_nodes = [](const auto& counts, std::vector<std::string>& nodes) {
    for (const auto& [node, count] : counts) {
      if (count.first >= kFleetMinNodeWays && count.second == count.first) nodes.push_back(node);
    }
  };
  low_nodes(sending, reference.low_senders);
  low_nodes(receiving, reference.low_receivers);
}

std::string low_node_of(const FleetReference& reference, const FleetSample& sample) {
  auto listed = [](const std::vector<std::string>& nodes, const std::string& node) {
    return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
  };
  if (listed(reference.low_senders, sample.from))
    return sample.from + (sample.directed ? " sends" : "");
  if (!sample.directed && listed(reference.low_senders, sample.to)) return sample.to;
  if (sample.directed && listed(reference.low_receivers, sample.to)) return sample.to + " receives";
  return "";
}

double fleet_line_ratio(const FleetReference& reference, const FleetFactors& factors) {
  return reference.line > 0 ? reference.line : loosest_ratio(reference.latency, factors);
}

std::string fleet_line_text(const FleetReference& reference, const FleetFactors& factors) {
  const double line = fleet_line_ratio(reference, factors);
  const bool latency = reference.latency;
  std::string text = std::string(latency ? "slow above " : "slow below ") + ratio_text(line);
  const std::string ways = std::to_string(reference.spread_ways) + (latency ? " pairs" : " ways");
  switch (reference.basis) {
    case FleetLineBasis::kPinned:
      return text + ", as [thresholds] " +
             (latency ? "fleet_max_latency_ratio" : "fleet_min_bandwidth_ratio") + " pins it";
    case FleetLineBasis::kFactors:
      if (reference.line == 0) return text;  // an older report: the factors, no reason kept
      return text + ": too few " + (latency ? "pairs" : "ways") + " to know the fleet's spread (" +
             ways + ")";
    case FleetLineBasis::kSpread:
      break;
  }
  const double percent_value = 100 * (std::exp(reference.spread) - 1);
  const std::string percent = format_number(percent_value, percent_value < 10 ? 1 : 0) + "%";
  const bool loosest = line == loosest_ratio(latency, factors);
  const bool tightest =
      line == (latency ? kFleetTightestLatencyRatio : kFleetTightestBandwidthRatio);
  if (loosest) {
    return text + ", the loosest line: the fleet's healthy " + (latency ? "pairs" : "ways") +
           " spread ±" + percent + " (" + ways + ")";
  }
  return text + (tightest ? ", the tightest line" : "") + ": the fleet's healthy " +
         (latency ? "pairs" : "ways") + " agree within ±" + percent + " (" + ways + ")";
}

}  // namespace ibkit
