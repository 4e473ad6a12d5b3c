#include "rules/baseline_rule.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "model/check_report.hpp"
#include "rules/figure_text.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// The most lines of one kind of change a comparison lists; the rest are counted.
constexpr std::size_t kMaxListed = 50;

using PairKey = std::tuple<std::string, std::string, int>;  // the two nodes in order, the rail

PairKey key_of(const SweepPair& pair) {
  return pair.a < pair.b ? PairKey{pair.a, pair.b, pair.rail} : PairKey{pair.b, pair.a, pair.rail};
}

std::string pair_name(const SweepPair& pair, int rails) {
  return pair.a + " <-> " + pair.b + (rails > 1 ? " rail " + std::to_string(pair.rail) : "");
}

bool usable(const std::optional<double>& figure) {
  return figure && std::isfinite(*figure) && *figure > 0;
}

// "X is Rx the baseline's Y" when `now` is worse than `then` by more than the factor.
std::optional<std::string> worse_by(bool latency, double now, double then, double factor) {
  const double ratio = now / then;
  if (latency ? ratio <= factor : ratio >= 1 / factor) return std::nullopt;
  return figure_text(latency, now) + " is " + ratio_text(ratio) + " the baseline's " +
         figure_text(latency, then);
}

struct PairComparison {
  bool compared = false;
  std::vector<std::string> regressions;
};

// A pair's figures against the same pair's in the baseline, for the subjects both runs measured
// ("" for one they did not). A bandwidth each way is compared way by way, whichever node drove
// the pair in each run; the sums only when neither run has a figure each way (older reports).
PairComparison compare_pair(const SweepPair& pair, const SweepPair& then,
                            const FigureSubjects& common, double factor) {
  PairComparison result;
  const auto now_figures = pair_figures(pair);
  const auto then_figures = pair_figures(then);
  auto compare = [&](bool latency, const std::string& what, const std::optional<double>& now,
                     const std::optional<double>& before) {
    if (!usable(now) || !usable(before)) return;
    result.compared = true;
    if (auto text = worse_by(latency, *now, *before, factor))
      result.regressions.push_back(what + ": " + *text);
  };
  if (!common.latency.empty())
    compare(true, common.latency, now_figures.latency_us, then_figures.latency_us);
  if (common.bandwidth.empty()) return result;
  const bool same_way = pair.a == then.a;
  const auto& then_a_to_b = same_way ? then_figures.a_to_b_gbps : then_figures.b_to_a_gbps;
  const auto& then_b_to_a = same_way ? then_figures.b_to_a_gbps : then_figures.a_to_b_gbps;
  const bool each_way = usable(now_figures.a_to_b_gbps) || usable(now_figures.b_to_a_gbps) ||
                        usable(then_a_to_b) || usable(then_b_to_a);
  if (each_way) {
    compare(false, common.bandwidth + " " + pair.a + " -> " + pair.b, now_figures.a_to_b_gbps,
            then_a_to_b);
    compare(false, common.bandwidth + " " + pair.b + " -> " + pair.a, now_figures.b_to_a_gbps,
            then_b_to_a);
  } else {
    compare(false, common.bandwidth, now_figures.bandwidth_gbps, then_figures.bandwidth_gbps);
  }
  return result;
}

void apply_regressions(SweepPair& pair, const std::vector<std::string>& regressions,
                       const std::string& date) {
  pair.rules.baseline = true;
  if (regressions.empty()) return;
  const std::string text = "baseline: " + join(regressions, "; ") + " (baseline of " + date + ")";
  if (pair.status == PairStatus::kPass) {
    pair.status = PairStatus::kSlow;
    pair.reason = text;
  } else {
    pair.reason += "; " + text;
  }
}

// The subject both runs' figures of one kind come from: "" (and why, in `notes`) when either
// does not say or they differ.
std::string common_subject(const std::string& now, const std::string& then, const char* kind,
                           std::vector<std::string>& notes) {
  if (now.empty()) return "";
  if (then.empty()) {
    notes.push_back(std::string("pairs' ") + kind +
                    ": the baseline does not say which test its figures come from (a report "
                    "from before ibkit recorded it)");
    return "";
  }
  if (now != then) {
    notes.push_back(std::string("pairs' ") + kind + ": the baseline measured " + then +
                    ", this run " + now);
    return "";
  }
  return now;
}

// Appends the first kMaxListed of `lines` with `prefix`, and a count of the rest.
void list_capped(std::vector<std::string>& out, const std::string& prefix,
                 const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size() && i < kMaxListed; ++i) out.push_back(prefix + lines[i]);
  if (lines.size() > kMaxListed)
    out.push_back(prefix + "and " + std::to_string(lines.size() - kMaxListed) + " more");
}

using CheckKey = std::tuple<std::string, std::string, std::string>;  // host, id, subject

std::set<CheckKey> failed_checks(const SweepReport& report) {
  std::set<CheckKey> failed;
  for (const auto* reports : {&report.node_checks, &report.fabric_checks}) {
    for (const auto& check : *reports) {
      for (const auto& result : check.results) {
        if (result.status == Status::kFail) failed.insert({check.host, result.id, result.subject});
      }
    }
  }
  return failed;
}

std::set<std::string> checked_hosts(const SweepReport& report) {
  std::set<std::string> hosts;
  for (const auto& check : report.node_checks) hosts.insert(check.host);
  for (const auto& check : report.fabric_checks) hosts.insert(check.host);
  return hosts;
}

// Failed checks in `from` that `to` has not, on hosts `to` checked.
std::vector<std::string> checks_only_in(const std::set<CheckKey>& from,
                                        const std::set<CheckKey>& to,
                                        const std::set<std::string>& hosts) {
  std::vector<std::string> lines;
  for (const auto& key : from) {
    const auto& [host, id, subject] = key;
    if (!to.count(key) && hosts.count(host)) lines.push_back(host + ": " + id + " " + subject);
  }
  return lines;
}

std::vector<std::string> names_only_in(const std::vector<std::string>& from,
                                       const std::vector<std::string>& to) {
  const std::set<std::string> other(to.begin(), to.end());
  std::vector<std::string> names;
  for (const auto& name : from) {
    if (!other.count(name)) names.push_back(name);
  }
  return names;
}

// The fleet's typical figures against the baseline's, per test, size and rail.
void compare_fleets(const SweepReport& now, const SweepReport& before,
                    BaselineComparison& comparison, std::vector<std::string>& better) {
  if (!now.fleet || now.fleet->references.empty() || !before.fleet ||
      before.fleet->references.empty()) {
    comparison.not_compared.push_back(
        "the fleet's typical figures: " +
        std::string(!now.fleet || now.fleet->references.empty() ? "this run" : "the baseline") +
        " has none (the fleet rule needs 3 nodes measured, and the rule on)");
    return;
  }
  std::map<std::tuple<std::string, int, bool>, const FleetReference*> then;
  for (const auto& reference : before.fleet->references)
    then.emplace(std::tuple{reference.subject, reference.rail, reference.latency}, &reference);
  for (const auto& reference : now.fleet->references) {
    const auto found = then.find({reference.subject, reference.rail, reference.latency});
    const std::string what =
        reference.subject + (now.rails > 1 ? " rail " + std::to_string(reference.rail) : "");
    if (found == then.end()) {
      comparison.not_compared.push_back(what + ": not measured in the baseline");
      continue;
    }
    const bool latency = reference.latency;
    const double typical = found->second->typical;
    if (!(typical > 0) || !(reference.typical > 0)) continue;
    if (auto text = worse_by(latency, reference.typical, typical, comparison.factor)) {
      comparison.regressions.push_back(what + ": the fleet's typical " + *text);
    } else if (worse_by(latency, typical, reference.typical, comparison.factor)) {
      better.push_back(what + ": the fleet's typical " + figure_text(latency, reference.typical) +
                       " is " + ratio_text(reference.typical / typical) + " the baseline's " +
                       figure_text(latency, typical));
    }
  }
}

}  // namespace

const BaselineComparison& judge_against_baseline(SweepReport& now, const SweepReport& before,
                                                 const std::string& file, double factor) {
  BaselineComparison comparison;
  comparison.file = file;
  comparison.generated_at = before.generated_at;
  comparison.factor = factor;
  if (before.generated_at > now.generated_at) {
    comparison.not_compared.push_back("the baseline (" + before.generated_at +
                                      ") is newer than this run (" + now.generated_at +
                                      "): were the two swapped?");
  }
  const auto now_subjects = figure_subjects_of(now);
  const auto then_subjects = figure_subjects_of(before);
  const FigureSubjects common{common_subject(now_subjects.latency, then_subjects.latency, "latency",
                                             comparison.not_compared),
                              common_subject(now_subjects.bandwidth, then_subjects.bandwidth,
                                             "bandwidth", comparison.not_compared)};

  std::map<PairKey, const SweepPair*> then_pairs;
  for (const auto& pair : before.pairs) then_pairs.emplace(key_of(pair), &pair);
  std::set<PairKey> seen;
  std::vector<std::string> newly_bad, recovered;
  std::size_t unmatched = 0, bad_then = 0;
  for (auto& pair : now.pairs) {
    const auto found = then_pairs.find(key_of(pair));
    if (found == then_pairs.end()) {
      ++unmatched;
      continue;
    }
    seen.insert(found->first);
    const SweepPair& then = *found->second;
    const bool passes = pair.status == PairStatus::kPass;
    const bool passed = then.status == PairStatus::kPass;
    if (passed && !passes) {
      newly_bad.push_back(pair_name(pair, now.rails) + ": pass then, " +
                          std::string(pair_status_name(pair.status)) + " now");
    } else if (!passed && passes) {
      recovered.push_back(pair_name(pair, now.rails) + ": " +
                          std::string(pair_status_name(then.status)) + " then, pass now");
    }
    if (!passed) {
      ++bad_then;
      continue;
    }
    if (!passes && pair.status != PairStatus::kSlow) continue;
    const auto compared = compare_pair(pair, then, common, factor);
    if (!compared.compared) continue;
    ++comparison.pairs_compared;
    if (!compared.regressions.empty()) ++comparison.pairs_regressed;
    apply_regressions(pair, compared.regressions, before.generated_at);
  }
  if (unmatched > 0)
    comparison.not_compared.push_back(count_of(unmatched, "pair", "pairs") +
                                      " of this run not in the baseline");
  if (const std::size_t missing = then_pairs.size() - seen.size(); missing > 0)
    comparison.not_compared.push_back(count_of(missing, "pair", "pairs") +
                                      " of the baseline not run now");
  if (bad_then > 0)
    comparison.not_compared.push_back(count_of(bad_then, "pair", "pairs") +
                                      " that did not pass in the baseline");

  std::vector<std::string> better;
  compare_fleets(now, before, comparison, better);

  const auto failed_now = failed_checks(now);
  const auto failed_then = failed_checks(before);
  list_capped(comparison.changes, "not passing now: ", newly_bad);
  list_capped(comparison.changes, "failing now, passed then: ",
              checks_only_in(failed_now, failed_then, checked_hosts(before)));
  list_capped(comparison.changes, "gone since: ", names_only_in(before.nodes, now.nodes));
  list_capped(comparison.changes, "passing now: ", recovered);
  list_capped(comparison.changes, "passing now, failed then: ",
              checks_only_in(failed_then, failed_now, checked_hosts(now)));
  list_capped(comparison.changes, "new since: ", names_only_in(now.nodes, before.nodes));
  list_capped(comparison.changes, "better: ", better);
  now.baseline = std::move(comparison);
  return *now.baseline;
}

}  // namespace ibkit
