#include "model/sweep_report.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "measure/measurement_subject.hpp"
#include "model/check_report.hpp"
#include "util/text.hpp"

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

int pair_status_rank(PairStatus status) {
  switch (status) {
    case PairStatus::kFailed:
      return 0;
    case PairStatus::kTimedOut:
      return 1;
    case PairStatus::kUnreachable:
      return 2;
    case PairStatus::kSlow:
      return 3;
    case PairStatus::kNotRun:
      return 4;
    case PairStatus::kPass:
      break;
  }
  return 5;
}

std::string pair_rules_name(const PairRules& rules) {
  if (!rules.recorded) return "not recorded";
  std::string name;
  for (const auto& [on, word] :
       {std::pair{rules.threshold, "threshold"}, std::pair{rules.fleet, "fleet"},
        std::pair{rules.baseline, "baseline"}}) {
    if (on) name += (name.empty() ? "" : "+") + std::string(word);
  }
  return name.empty() ? "none" : name;
}

namespace {

// a is the end that measured (the client): its sends are to_peer. One way, a write or send
// goes from a to b and a read brings b's data to a.
void set_each_way(const VerbsMeasurement& test, const SizeMeasurement& size, PairFigures& figures) {
  if (size.to_peer || size.from_peer) {
    if (size.to_peer) figures.a_to_b_gbps = size.to_peer->gbps;
    if (size.from_peer) figures.b_to_a_gbps = size.from_peer->gbps;
  } else if (!test.bidir) {
    (test.op == "read" ? figures.b_to_a_gbps : figures.a_to_b_gbps) = size.bandwidth->gbps;
  }
}

// TCP's figures each way: a one-way test's from the client (the pair's first node), a
// bidirectional one's where the report has them.
void set_each_way(const TcpResult& test, PairFigures& figures) {
  if (!test.bidir) {
    figures.a_to_b_gbps = test.gbps;
  } else if (test.gbps_to_peer && test.gbps_from_peer) {
    figures.a_to_b_gbps = test.gbps_to_peer;
    figures.b_to_a_gbps = test.gbps_from_peer;
  }
}

// The figures the matrices show of a pair's report; with `subjects`, also the tests they come
// from (strings the matrices of a large sweep need not build for every pair).
PairFigures measured_figures(const PairReport& report, FigureSubjects* subjects = nullptr) {
  PairFigures figures;
  const TcpResult* tcp = nullptr;
  for (const auto& outcome : report.outcomes) {
    if (outcome.tcp && !tcp) tcp = &*outcome.tcp;
    if (!outcome.verbs) continue;
    const auto* smallest = smallest_latency_size(*outcome.verbs);
    if (smallest && !figures.latency_us) {
      figures.latency_us = smallest->latency->typical_us;
      if (subjects) subjects->latency = verbs_subject(*outcome.verbs, smallest->size);
    }
    const auto* largest = largest_bandwidth_size(*outcome.verbs);
    if (largest && !figures.bandwidth_gbps) {
      figures.bandwidth_gbps = largest->bandwidth->gbps;
      if (subjects) subjects->bandwidth = verbs_subject(*outcome.verbs, largest->size);
      set_each_way(*outcome.verbs, *largest, figures);
    }
  }
  if (!figures.bandwidth_gbps && tcp) {
    figures.bandwidth_gbps = tcp->gbps;
    if (subjects) subjects->bandwidth = tcp_subject(*tcp);
    set_each_way(*tcp, figures);
  }
  return figures;
}

}  // namespace

PairFigures pair_figures(const SweepPair& pair) {
  return pair.report ? measured_figures(*pair.report) : pair.figures;
}

FigureSubjects figure_subjects_of(const SweepReport& report) {
  FigureSubjects subjects = report.figure_subjects;
  for (const auto& pair : report.pairs) {
    if (!subjects.latency.empty() && !subjects.bandwidth.empty()) break;
    if (!pair.report) continue;
    FigureSubjects measured;
    measured_figures(*pair.report, &measured);
    if (subjects.latency.empty()) subjects.latency = measured.latency;
    if (subjects.bandwidth.empty()) subjects.bandwidth = measured.bandwidth;
  }
  return subjects;
}

std::vector<std::string> untested_nodes(const SweepReport& report) {
  if (report.pattern.empty()) return {};
  // By each node's place in report.nodes; the pairs are read only until every node was in one
  // that ran, which an all-pairs sweep's first round already shows: every verdict asks.
  std::unordered_map<std::string_view, std::size_t> place;
  for (std::size_t i = 0; i < report.nodes.size(); ++i) place.emplace(report.nodes[i], i);
  std::vector<bool> tested(report.nodes.size(), false);
  std::size_t left = report.nodes.size();
  auto mark = [&](const std::string& node) {
    const auto found = place.find(node);
    if (found != place.end() && !tested[found->second]) {
      tested[found->second] = true;
      --left;
    }
  };
  for (const auto& pair : report.pairs) {
    if (left == 0) break;
    if (pair.status == PairStatus::kNotRun) continue;
    mark(pair.a);
    mark(pair.b);
  }
  std::vector<std::string> untested;
  for (std::size_t i = 0; i < report.nodes.size(); ++i)
    if (!tested[i]) untested.push_back(report.nodes[i]);
  return untested;
}

std::string untested_text(const SweepReport& report, std::size_t most) {
  const std::vector<std::string> untested = untested_nodes(report);
  if (untested.empty()) return "";
  return std::to_string(untested.size()) + " of " + std::to_string(report.nodes.size()) +
         " nodes untested (in no pair that ran): " + join_capped(untested, most, ", ");
}

bool sweep_failed(const SweepReport& report) {
  auto pair_bad = [](const SweepPair& pair) { return pair.status != PairStatus::kPass; };
  auto check_bad = [](const CheckReport& check) { return any_failed(check.results); };
  return std::any_of(report.pairs.begin(), report.pairs.end(), pair_bad) ||
         !report.blamed.empty() || !report.blamed_links.empty() ||
         std::any_of(report.node_checks.begin(), report.node_checks.end(), check_bad) ||
         std::any_of(report.fabric_checks.begin(), report.fabric_checks.end(), check_bad) ||
         (report.baseline && !report.baseline->regressions.empty()) ||
         !untested_nodes(report).empty();
}

}  // namespace ibkit
