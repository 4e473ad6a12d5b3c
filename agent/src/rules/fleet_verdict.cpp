#include "rules/fleet_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "measure/measurement_subject.hpp"
#include "measure/verbs_measurement.hpp"
#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"
#include "rules/figure_text.hpp"
#include "rules/fleet_line.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// The fleet rule needs this many nodes with a figure: with two, the one pair is its own fleet.
constexpr std::size_t kMinFleetNodes = 3;

// Better first: the lower latency, the higher bandwidth.
bool better(bool latency, double x, double y) { return latency ? x < y : x > y; }

// Whether a latency's minimum and the fleet's typical minimum are both known.
bool floors_known(const FleetFigure& figure, double typical_floor) {
  return figure.latency && figure.floor > 0 && typical_floor > 0;
}

// Whether `figure` is farther from `typical` than `line` (a ratio to it: below it for a
// bandwidth, above for a latency); with `root`, than its square root (half as far, on a log
// scale). A latency must be far on its floor too, when both floors are known.
bool far_from(const FleetFigure& figure, double typical, double typical_floor, double line,
              bool root = false) {
  if (figure.latency) {
    const double limit = root ? std::sqrt(line) : line;
    const double min_excess = figure.tail ? kFleetMinTailExcessUs : kFleetMinLatencyExcessUs;
    return figure.value / typical > limit && figure.value - typical >= min_excess &&
           (!floors_known(figure, typical_floor) || figure.floor / typical_floor > limit);
  }
  const double limit = root ? std::sqrt(line) : line;
  return figure.value / typical < limit;
}

// ", minimum 900 us, 4.02x the fleet's 224 us": why a latency's median alone did not decide.
std::string floor_text(const FleetFigure& figure, double typical_floor) {
  if (!floors_known(figure, typical_floor)) return "";
  return ", minimum " + figure_text(true, figure.floor) + ", " +
         ratio_text(figure.floor / typical_floor) + " the fleet's " +
         figure_text(true, typical_floor);
}

// A bandwidth measured each way: two figures of one subject, each naming its way, so that a
// node slow in one direction is not hidden by the other.
void add_each_way(std::vector<FleetFigure>& figures, const SweepPair& pair,
                  const std::string& subject, double a_to_b, double b_to_a) {
  figures.push_back({subject + " each way", false, a_to_b, 0, pair.a + " -> " + pair.b});
  figures.push_back({subject + " each way", false, b_to_a, 0, pair.b + " -> " + pair.a});
}

// A p99 from fewer round trips is one of the slowest few, not a tail.
constexpr std::uint64_t kMinTailIterations = 100;

// The p99 of a latency size, when it has one worth comparing: a few percent of round trips
// stalled by retransmissions hardly move the median or the minimum, but they make the tail.
void add_tail(std::vector<FleetFigure>& figures, const std::string& subject,
              const SizeMeasurement& size) {
  if (size.iterations < kMinTailIterations || !(size.latency->p99_us > 0)) return;
  figures.push_back({subject + " p99", true, size.latency->p99_us, 0, "", true});
}

using Key = std::tuple<std::string, int, bool>;  // subject, rail, latency

// One measured figure, and the pair it came from.
struct Sample {
  double value = 0;
  std::size_t pair = 0;
};

// The better-first element at index `rank` (0 = best).
Sample nth_best(std::vector<Sample> samples, bool latency, std::size_t rank) {
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(rank),
                   samples.end(), [&](const Sample& x, const Sample& y) {
                     return better(latency, x.value, y.value) ||
                            (x.value == y.value && x.pair < y.pair);  // repeatable on ties
                   });
  return samples[rank];
}

// The fleet's typical value of `samples_by_node`: each node's upper-quartile sample (its
// ceil(m/4)-th best of m), then the median of those (the better middle one for an even count).
double typical_of(const std::map<std::string, std::vector<Sample>>& samples_by_node, bool latency) {
  std::vector<Sample> quartiles;
  for (const auto& [node, mine] : samples_by_node) {
    quartiles.push_back(nth_best(mine, latency, (mine.size() + 3) / 4 - 1));
  }
  return nth_best(quartiles, latency, (quartiles.size() - 1) / 2).value;
}

// The nodes a figure of `pair` was measured between, sender first where it has a way.
FleetSample fleet_sample(const FleetFigure& figure, const SweepPair& pair) {
  FleetSample sample{figure.value, pair.a, pair.b, !figure.latency};
  if (const auto arrow = figure.direction.find(" -> "); arrow != std::string::npos) {
    sample.from = figure.direction.substr(0, arrow);
    sample.to = figure.direction.substr(arrow + 4);
  }
  return sample;
}

}  // namespace

std::vector<FleetFigure> fleet_figures(const SweepPair& pair) {
  std::vector<FleetFigure> figures;
  if (!pair.report || (pair.status != PairStatus::kPass && pair.status != PairStatus::kSlow)) {
    return figures;
  }
  for (const auto& outcome : pair.report->outcomes) {
    if (!outcome.error.empty()) continue;
    if (outcome.verbs) {
      if (const auto* smallest = smallest_latency_size(*outcome.verbs)) {
        const std::string subject = verbs_subject(*outcome.verbs, smallest->size);
        figures.push_back(
            {subject, true, smallest->latency->typical_us, smallest->latency->min_us});
        add_tail(figures, subject, *smallest);
      }
      if (const auto* largest = largest_bandwidth_size(*outcome.verbs)) {
        const std::string subject = verbs_subject(*outcome.verbs, largest->size);
        if (largest->to_peer && largest->from_peer) {
          add_each_way(figures, pair, subject, largest->to_peer->gbps, largest->from_peer->gbps);
        } else {
          figures.push_back({subject, false, largest->bandwidth->gbps});
        }
      }
    }
    if (const auto& tcp = outcome.tcp) {
      if (tcp->gbps_to_peer && tcp->gbps_from_peer) {
        add_each_way(figures, pair, tcp_subject(*tcp), *tcp->gbps_to_peer, *tcp->gbps_from_peer);
      } else {
        figures.push_back({tcp_subject(*tcp), false, tcp->gbps});
      }
    }
  }
  // A figure that is not a number compares with nothing (and would break the ordering).
  std::erase_if(figures, [](const FleetFigure& figure) { return !std::isfinite(figure.value); });
  for (auto& figure : figures) {
    if (!std::isfinite(figure.floor) || figure.floor < 0) figure.floor = 0;  // not known
  }
  return figures;
}

std::vector<FleetReference> fleet_baseline(const SweepReport& report, const FleetFactors& factors) {
  // key -> node -> that node's samples, of the figure and of its floor
  std::map<Key, std::map<std::string, std::vector<Sample>>> samples;
  std::map<Key, std::map<std::string, std::vector<Sample>>> floors;
  std::map<Key, std::vector<FleetSample>> fleet_samples;  // key -> every figure, with its nodes
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    const SweepPair& pair = report.pairs[i];
    if (pair.a == pair.b) continue;
    for (const auto& figure : fleet_figures(pair)) {
      const Key key{figure.subject, pair.rail, figure.latency};
      fleet_samples[key].push_back(fleet_sample(figure, pair));
      for (const auto& node : {pair.a, pair.b}) {
        samples[key][node].push_back({figure.value, i});
        if (figure.floor > 0) floors[key][node].push_back({figure.floor, i});
      }
    }
  }
  std::vector<FleetReference> references;
  for (const auto& [key, nodes] : samples) {
    if (nodes.size() < kMinFleetNodes) continue;
    const auto& [subject, rail, latency] = key;
    FleetReference reference{subject, rail, latency, typical_of(nodes, latency),
                             static_cast<int>(nodes.size())};
    // A floor from fewer nodes than the figure would judge some nodes' pairs by others' floors.
    const auto floor = floors.find(key);
    if (floor != floors.end() && floor->second.size() == nodes.size()) {
      reference.typical_floor = typical_of(floor->second, latency);
    }
    draw_fleet_line(reference, fleet_samples[key], factors);
    find_low_nodes(reference, fleet_samples[key]);
    references.push_back(std::move(reference));
  }
  return references;
}

FleetVerdict fleet_verdict(const SweepPair& pair, const std::vector<FleetReference>& references,
                           const FleetFactors& factors) {
  FleetVerdict verdict;
  if (!factors.on) return verdict;
  for (const auto& figure : fleet_figures(pair)) {
    const auto reference =
        std::find_if(references.begin(), references.end(), [&](const FleetReference& candidate) {
          return candidate.subject == figure.subject && candidate.rail == pair.rail &&
                 candidate.latency == figure.latency;
        });
    if (reference == references.end() || !(reference->typical > 0)) continue;
    verdict.judged = true;
    double line = fleet_line_ratio(*reference, factors);
    std::string node;  // when not far alone: the node whose ways are all low together, if any
    if (!far_from(figure, reference->typical, reference->typical_floor, line)) {
      if (reference->low_senders.empty() && reference->low_receivers.empty()) continue;
      node = low_node_of(*reference, fleet_sample(figure, pair));
      line = node_line_ratio(line, figure.latency);
      if (node.empty() || !far_from(figure, reference->typical, reference->typical_floor, line))
        continue;
    }
    std::string why = fleet_line_text(*reference, factors);
    if (!node.empty()) {
      const bool way = node.find(' ') != std::string::npos;  // "n1 sends": a direction
      why = (way ? "every way " : "every pair of ") + node + " is past " + ratio_text(line) +
            ", the line for a node's ways together; " + why;
    }
    verdict.shortfalls.push_back(
        {figure, reference->typical, reference->typical_floor, line,
         figure.subject + (figure.direction.empty() ? "" : " " + figure.direction) + ": " +
             figure_text(figure.latency, figure.value) + " is " +
             ratio_text(figure.value / reference->typical) + " the fleet's typical " +
             figure_text(figure.latency, reference->typical) + " (" + why + ")" +
             floor_text(figure, reference->typical_floor)});
  }
  return verdict;
}

FleetVerdict confirm_with_control(const FleetVerdict& verdict, const SweepPair& control,
                                  int rails) {
  FleetVerdict confirmed;
  confirmed.judged = verdict.judged;
  const auto figures = fleet_figures(control);
  for (const auto& shortfall : verdict.shortfalls) {
    // The control's figure for the same test; of its two ways, the better one (the control is a
    // pair the rule did not find far, so its ways should be alike).
    const FleetFigure* same = nullptr;
    for (const auto& other : figures) {
      if (other.subject != shortfall.figure.subject || other.latency != shortfall.figure.latency)
        continue;
      if (same == nullptr || better(other.latency, other.value, same->value)) same = &other;
    }
    if (same == nullptr || !(same->value > 0)) {
      confirmed.shortfalls.push_back(shortfall);
      continue;
    }
    // A control far from the fleet itself says the moment was slow for everyone, or the typical
    // figure came from a lucky pair: the pair then answers to the control alone.
    const bool slow_moment =
        far_from(*same, shortfall.typical, shortfall.typical_floor, shortfall.line);
    if (!far_from(shortfall.figure, same->value, same->floor, shortfall.line, !slow_moment))
      continue;
    FleetShortfall kept = shortfall;
    kept.text += ", and " + ratio_text(shortfall.figure.value / same->value) + " the " +
                 figure_text(same->latency, same->value) + " of " + control.a + " -> " + control.b +
                 (rails > 1 ? " rail " + std::to_string(control.rail) : "") + " measured with it";
    confirmed.shortfalls.push_back(std::move(kept));
  }
  return confirmed;
}

void apply_fleet_verdict(SweepPair& pair, const FleetVerdict& verdict) {
  if (pair.status != PairStatus::kPass && pair.status != PairStatus::kSlow) {
    pair.rules.fleet = false;  // no figure rule decided it: its reason says why
    return;
  }
  if (verdict.shortfalls.empty()) {
    // A pass the rule held to; a slow pair keeps only the rules it fell short of.
    if (pair.status == PairStatus::kPass && verdict.judged) pair.rules.fleet = true;
    return;
  }
  pair.rules.fleet = true;
  std::vector<std::string> texts;
  for (const auto& shortfall : verdict.shortfalls) texts.push_back(shortfall.text);
  const std::string fleet = "fleet: " + join(texts, "; ");
  if (pair.status == PairStatus::kSlow) {
    // Slow already, by its reason's rule (a threshold, the transport counters): the fleet's
    // shortfalls follow it, for the figures and the way they name.
    if (pair.reason.find("fleet: ") == std::string::npos) pair.reason += "; " + fleet;
    return;
  }
  pair.status = PairStatus::kSlow;
  pair.rules.threshold = false;  // it met them: the fleet rule alone made it slow
  pair.reason = fleet;
}

std::vector<FleetVerdict> judge_fleet(SweepReport& report, const FleetFactors& factors) {
  std::vector<FleetReference> references;
  if (factors.on) references = fleet_baseline(report, factors);
  std::vector<FleetVerdict> verdicts;
  for (auto& pair : report.pairs) {
    verdicts.push_back(fleet_verdict(pair, references, factors));
    apply_fleet_verdict(pair, verdicts.back());
  }
  report.fleet = FleetJudgment{factors, std::move(references)};
  return verdicts;
}

}  // namespace ibkit
