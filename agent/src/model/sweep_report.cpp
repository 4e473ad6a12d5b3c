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
  if (rules.threshold && rules.fleet) return "threshold+fleet";
  if (rules.threshold) return "threshold";
  if (rules.fleet) return "fleet";
  return "none";
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

PairFigures measured_figures(const PairReport& report) {
  PairFigures figures;
  const TcpResult* tcp = nullptr;
  for (const auto& outcome : report.outcomes) {
    if (outcome.tcp && !tcp) tcp = &*outcome.tcp;
    if (!outcome.verbs) continue;
    const auto* smallest = smallest_latency_size(*outcome.verbs);
    if (smallest && !figures.latency_us) figures.latency_us = smallest->latency->typical_us;
    const auto* largest = largest_bandwidth_size(*outcome.verbs);
    if (largest && !figures.bandwidth_gbps) {
      figures.bandwidth_gbps = largest->bandwidth->gbps;
      set_each_way(*outcome.verbs, *largest, figures);
    }
  }
  if (!figures.bandwidth_gbps && tcp) {
    figures.bandwidth_gbps = tcp->gbps;
    set_each_way(*tcp, figures);
  }
  return figures;
}

}  // namespace

PairFigures pair_figures(const SweepPair& pair) {
  return pair.report ? measured_figures(*pair.report) : pair.figures;
}

bool sweep_failed(const SweepReport& report) {
  auto pair_bad = [](const SweepPair& pair) { return pair.status != PairStatus::kPass; };
  auto check_bad = [](const CheckReport& check) { return any_failed(check.results); };
  return std::any_of(report.pairs.begin(), report.pairs.end(), pair_bad) ||
         !report.blamed.empty() || !report.blamed_links.empty() ||
         std::any_of(report.node_checks.begin(), report.node_checks.end(), check_bad) ||
         std::any_of(report.fabric_checks.begin(), report.fabric_checks.end(), check_bad);
}

}  // namespace ibkit
