#include "schema/verdict_summary_json.hpp"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/baseline_json.hpp"
#include "schema/json_object_writer.hpp"

namespace ibkit {
namespace {

using nlohmann::ordered_json;

ordered_json status_counts(const std::vector<SweepPair>& pairs) {
  ordered_json counts;
  for (auto status : {PairStatus::kPass, PairStatus::kSlow, PairStatus::kFailed,
                      PairStatus::kTimedOut, PairStatus::kUnreachable, PairStatus::kNotRun}) {
    counts[std::string(pair_status_name(status))] = std::count_if(
        pairs.begin(), pairs.end(), [&](const SweepPair& p) { return p.status == status; });
  }
  return counts;
}

ordered_json worst_pairs(const std::vector<SweepPair>& pairs, std::size_t* more) {
  std::vector<const SweepPair*> bad;
  for (const auto& pair : pairs)
    if (pair.status != PairStatus::kPass) bad.push_back(&pair);
  std::stable_sort(bad.begin(), bad.end(), [](const SweepPair* x, const SweepPair* y) {
    return pair_status_rank(x->status) < pair_status_rank(y->status);
  });
  *more = bad.size() - std::min(bad.size(), kMaxSummaryItems);
  auto named = ordered_json::array();
  for (std::size_t i = 0; i < bad.size() && i < kMaxSummaryItems; ++i) {
    named.push_back({{"a", bad[i]->a},
                     {"b", bad[i]->b},
                     {"rail", bad[i]->rail},
                     {"status", pair_status_name(bad[i]->status)},
                     {"reason", bad[i]->reason}});
  }
  return named;
}

ordered_json failed_checks(const std::vector<CheckReport>& checks, std::size_t* more) {
  auto named = ordered_json::array();
  *more = 0;
  for (const auto& check : checks) {
    for (const auto& result : check.results) {
      if (result.status != Status::kFail) continue;
      if (named.size() == kMaxSummaryItems) {
        ++*more;
        continue;
      }
      named.push_back({{"host", check.host},
                       {"id", result.id},
                       {"subject", result.subject},
                       {"observed", result.observed},
                       {"expected", result.expected}});
    }
  }
  return named;
}

}  // namespace

std::string render_verdict_summary_json(const SweepReport& report) {
  std::string text;
  JsonObjectWriter document(&text);
  document.member("schema", kSummarySchema);
  document.member("verdict", sweep_failed(report) ? "fail" : "pass");
  document.member("generated_at", report.generated_at);
  if (report.baseline) document.member("baseline", baseline_json(*report.baseline));
  document.member("nodes", report.nodes.size());
  if (const auto untested = untested_nodes(report); !untested.empty()) {
    const std::size_t named = std::min(untested.size(), kMaxSummaryItems);
    document.member("untested",
                    std::vector<std::string>(
                        untested.begin(), untested.begin() + static_cast<std::ptrdiff_t>(named)));
    document.member("more_untested", untested.size() - named);
  }
  document.member("pairs", report.pairs.size());
  document.member("counts", status_counts(report.pairs));
  auto blamed = ordered_json::array();
  for (const auto& blame : report.blamed)
    blamed.push_back({{"node", blame.node}, {"reason", blame.reason}});
  document.member("blamed", blamed);
  if (!report.blamed_links.empty()) {
    auto links = ordered_json::array();
    for (const auto& blame : report.blamed_links)
      links.push_back({{"link", blame.link}, {"reason", blame.reason}});
    document.member("blamed_links", links);
  }
  std::size_t more_checks = 0;
  document.member("failed_checks", failed_checks(report.node_checks, &more_checks));
  document.member("more_failed_checks", more_checks);
  if (!report.fabric_checks.empty()) {
    std::size_t more_fabric = 0;
    document.member("failed_fabric_checks", failed_checks(report.fabric_checks, &more_fabric));
    document.member("more_failed_fabric_checks", more_fabric);
  }
  std::size_t more_pairs = 0;
  document.member("worst_pairs", worst_pairs(report.pairs, &more_pairs));
  document.member("more_pairs", more_pairs);
  document.close();
  return text;
}

}  // namespace ibkit
