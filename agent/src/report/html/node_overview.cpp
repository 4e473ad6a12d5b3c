#include "report/html/node_overview.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "report/sweep_matrix.hpp"

namespace ibkit {
namespace {

struct Figures {
  std::vector<double> latency_us;
  std::vector<double> bandwidth_gbps;
};

double median_of(std::vector<double>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

void add_pair(NodeSummary& summary, Figures& figures, const SweepPair& pair,
              const PairFigures& measured) {
  ++summary.pairs;
  if (pair_broken(pair)) ++summary.broken;
  if (pair.status == PairStatus::kSlow) ++summary.slow;
  if (pair.status == PairStatus::kNotRun) ++summary.not_run;
  if (pair_broken(pair)) return;
  if (measured.latency_us) figures.latency_us.push_back(*measured.latency_us);
  if (measured.bandwidth_gbps) figures.bandwidth_gbps.push_back(*measured.bandwidth_gbps);
}

void set_figures(NodeSummary& summary, Figures& figures) {
  if (!figures.latency_us.empty()) {
    summary.worst_latency_us =
        *std::max_element(figures.latency_us.begin(), figures.latency_us.end());
    summary.median_latency_us = median_of(figures.latency_us);
  }
  if (!figures.bandwidth_gbps.empty()) {
    summary.worst_bandwidth_gbps =
        *std::min_element(figures.bandwidth_gbps.begin(), figures.bandwidth_gbps.end());
    summary.median_bandwidth_gbps = median_of(figures.bandwidth_gbps);
  }
}

int not_passed(const NodeSummary& s) { return s.broken + s.slow + s.not_run; }

// Larger is worse, compared in the order node_summaries() documents.
auto badness(const NodeSummary& s) {
  return std::make_tuple(s.blamed.has_value(), s.check_failed.value_or(false),
                         not_passed(s) > s.with_blamed, s.broken, s.slow, s.not_run,
                         s.worst_latency_us.value_or(0));
}

}  // namespace

bool only_a_victim(const NodeSummary& summary) {
  return !summary.blamed && !summary.check_failed.value_or(false) && not_passed(summary) > 0 &&
         summary.with_blamed == not_passed(summary);
}

std::vector<NodeSummary> node_summaries(const SweepReport& report) {
  std::vector<NodeSummary> summaries;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& node : report_nodes(report)) {
    index.emplace(node, summaries.size());
    summaries.emplace_back().node = node;
  }
  std::unordered_set<std::string> blamed;
  for (const auto& blame : report.blamed) {
    blamed.insert(blame.node);
    const auto found = index.find(blame.node);
    if (found != index.end()) summaries[found->second].blamed = blame.reason;
  }
  std::vector<Figures> figures(summaries.size());
  for (const auto& pair : report.pairs) {
    const PairFigures measured = pair_figures(pair);
    for (const auto& [end, other] : {std::pair{&pair.a, &pair.b}, std::pair{&pair.b, &pair.a}}) {
      const auto found = index.find(*end);
      if (found == index.end()) continue;
      add_pair(summaries[found->second], figures[found->second], pair, measured);
      if (pair.status != PairStatus::kPass && blamed.count(*other) != 0)
        ++summaries[found->second].with_blamed;
    }
  }
  for (std::size_t i = 0; i < summaries.size(); ++i) set_figures(summaries[i], figures[i]);
  for (const auto& check : report.node_checks) {
    const auto found = index.find(check.host);
    if (found == index.end()) continue;
    const bool failed = std::any_of(check.results.begin(), check.results.end(),
                                    [](const CheckResult& r) { return r.status == Status::kFail; });
    auto& verdict = summaries[found->second].check_failed;
    verdict = verdict.value_or(false) || failed;
  }
  std::stable_sort(
      summaries.begin(), summaries.end(),
      [](const NodeSummary& x, const NodeSummary& y) { return badness(x) > badness(y); });
  return summaries;
}

}  // namespace ibkit
