#include "rules/baseline_rule.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "model/sweep_report.hpp"
#include "report/check_json.hpp"
#include "rules/fleet_verdict.hpp"
#include "run_ibkit.hpp"
#include "schema/baseline_json.hpp"
#include "schema/sweep_report_json.hpp"
#include "scratch_path.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

constexpr double kLatencyUs = 1.5;
constexpr double kGbps = 90;
const std::string kThen = "2026-11-20T08:00:00Z";

// n nodes, every pair measured at these figures, judged by the fleet rule as a sweep would be.
SweepReport judged_fleet(int n, double latency_us, double gbps, const std::string& at) {
  SweepReport report = test::all_pairs_sweep(n, latency_us, gbps);
  report.generated_at = at;
  judge_fleet(report, FleetFactors{});
  return report;
}

SweepReport baseline_fleet(int n) { return judged_fleet(n, kLatencyUs, kGbps, kThen); }

// A pair as a report read back without its details shows it: figures only, no report.
SweepPair row(const std::string& a, const std::string& b, double latency_us,
              std::optional<double> a_to_b, std::optional<double> b_to_a) {
  SweepPair pair;
  pair.a = a;
  pair.b = b;
  pair.status = PairStatus::kPass;
  pair.figures.latency_us = latency_us;
  pair.figures.a_to_b_gbps = a_to_b;
  pair.figures.b_to_a_gbps = b_to_a;
  pair.figures.bandwidth_gbps = a_to_b.value_or(0) + b_to_a.value_or(0);
  return pair;
}

SweepReport rows_report(std::vector<SweepPair> pairs, const std::string& at) {
  SweepReport report;
  report.generated_at = at;
  report.figure_subjects = {"lat send 2 B", "bw write bidir 65536 B"};
  for (const auto& pair : pairs) {
    for (const auto* node : {&pair.a, &pair.b}) {
      if (std::find(report.nodes.begin(), report.nodes.end(), *node) == report.nodes.end())
        report.nodes.push_back(*node);
    }
  }
  report.pairs = std::move(pairs);
  return report;
}

std::size_t count_status(const SweepReport& report, PairStatus status) {
  return static_cast<std::size_t>(
      std::count_if(report.pairs.begin(), report.pairs.end(),
                    [&](const SweepPair& pair) { return pair.status == status; }));
}

bool any_line_has(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("baseline: a run compared with itself changes nothing and says so twice alike",
          "[rules][baseline]") {
  const SweepReport before = baseline_fleet(4);
  SweepReport first = before;
  SweepReport second = before;
  const auto& compared = judge_against_baseline(first, before, "base.json", 1.25);
  judge_against_baseline(second, before, "base.json", 1.25);
  CHECK(compared.regressions.empty());
  CHECK(compared.changes.empty());
  CHECK(compared.pairs_compared == before.pairs.size());
  CHECK(compared.pairs_regressed == 0);
  CHECK(count_status(first, PairStatus::kPass) == before.pairs.size());
  for (const auto& pair : first.pairs) CHECK(pair_rules_name(pair.rules) == "fleet+baseline");
  CHECK_FALSE(sweep_failed(first));
  CHECK(baseline_json(*first.baseline).dump() == baseline_json(*second.baseline).dump());
}

TEST_CASE("baseline: a uniformly slower fleet passes the fleet rule and fails the baseline",
          "[rules][baseline]") {
  const SweepReport before = baseline_fleet(4);
  SweepReport now = judged_fleet(4, kLatencyUs * 2, kGbps / 2, "2026-11-28T08:00:00Z");
  REQUIRE(count_status(now, PairStatus::kPass) == now.pairs.size());  // no outlier
  REQUIRE_FALSE(sweep_failed(now));

  SECTION(
      "factor 1.25: every pair is slow by the baseline rule, naming both figures and the date") {
    const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(count_status(now, PairStatus::kSlow) == now.pairs.size());
    CHECK(compared.pairs_regressed == now.pairs.size());
    for (const auto& pair : now.pairs) {
      CHECK(pair_rules_name(pair.rules) == "fleet+baseline");
      CHECK(pair.reason.rfind("baseline: lat send 2 B: 3 us is 2x the baseline's 1.5 us", 0) == 0);
      CHECK(pair.reason.find("0.5x the baseline's 90 Gb/s") != std::string::npos);
      CHECK(pair.reason.find("(baseline of " + kThen + ")") != std::string::npos);
    }
    CHECK(any_line_has(compared.regressions, "lat send 2 B: the fleet's typical 3 us is 2x"));
    CHECK(any_line_has(compared.regressions, "bw write 1048576 B: the fleet's typical 45 Gb/s"));
    CHECK(sweep_failed(now));
  }
  SECTION("factor 3: within it, nothing regressed") {
    const auto& compared = judge_against_baseline(now, before, "base.json", 3);
    CHECK(compared.regressions.empty());
    CHECK(compared.pairs_regressed == 0);
    CHECK_FALSE(sweep_failed(now));
  }
}

TEST_CASE("baseline: the fleet's typical figure alone fails a run whose pairs changed",
          "[rules][baseline]") {
  // Other pairs each run (random:K): no pair has one to compare with, the fleet still does.
  const SweepReport before = baseline_fleet(4);
  SweepReport now = judged_fleet(4, kLatencyUs * 2, kGbps, "2026-11-28T08:00:00Z");
  for (auto& pair : now.pairs) pair.rail = 1;
  now.rails = 2;
  for (auto& reference : now.fleet->references) reference.rail = 0;
  const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
  CHECK(compared.pairs_compared == 0);
  CHECK(any_line_has(compared.not_compared, "6 pairs of this run not in the baseline"));
  CHECK(any_line_has(compared.not_compared, "6 pairs of the baseline not run now"));
  CHECK(any_line_has(compared.regressions, "lat send 2 B rail 0: the fleet's typical 3 us"));
  CHECK(sweep_failed(now));
}

TEST_CASE("baseline: each way of a bandwidth is compared way by way, whoever drove the pair",
          "[rules][baseline]") {
  const auto before = rows_report({row("x", "y", 100, 10, 10)}, kThen);
  SECTION("y -> x halved, the pair now driven by y") {
    auto now = rows_report({row("y", "x", 100, 5, 10)}, "2026-11-28T08:00:00Z");
    const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(compared.pairs_regressed == 1);
    CHECK(now.pairs[0].status == PairStatus::kSlow);
    CHECK(now.pairs[0].reason.find("bw write bidir 65536 B y -> x: 5 Gb/s is 0.5x") !=
          std::string::npos);
    CHECK(now.pairs[0].reason.find("x -> y") == std::string::npos);
  }
  SECTION("the sum the same, one way lost half: still a regression") {
    auto now = rows_report({row("x", "y", 100, 15, 5)}, "2026-11-28T08:00:00Z");
    judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(now.pairs[0].status == PairStatus::kSlow);
    CHECK(now.pairs[0].reason.find("y -> x: 5 Gb/s is 0.5x") != std::string::npos);
  }
  SECTION("better is no regression") {
    auto now = rows_report({row("x", "y", 50, 20, 20)}, "2026-11-28T08:00:00Z");
    judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(now.pairs[0].status == PairStatus::kPass);
  }
}

TEST_CASE("baseline: sums are compared only when neither run measured each way",
          "[rules][baseline]") {
  auto old_row = row("x", "y", 100, std::nullopt, std::nullopt);
  old_row.figures.bandwidth_gbps = 20;
  const auto before = rows_report({old_row}, kThen);
  auto now_row = old_row;
  now_row.figures.bandwidth_gbps = 10;
  auto now = rows_report({now_row}, "2026-11-28T08:00:00Z");
  judge_against_baseline(now, before, "base.json", 1.25);
  CHECK(now.pairs[0].reason.find("bw write bidir 65536 B: 10 Gb/s is 0.5x") != std::string::npos);
}

TEST_CASE("baseline: figures of another test or size, or of an unknown one, are not compared",
          "[rules][baseline]") {
  auto before = rows_report({row("x", "y", 100, 10, 10)}, kThen);
  auto now = rows_report({row("x", "y", 1000, 1, 1)}, "2026-11-28T08:00:00Z");
  SECTION("another size") {
    now.figure_subjects = {"lat send 4096 B", "bw write bidir 1048576 B"};
    const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(now.pairs[0].status == PairStatus::kPass);
    CHECK(compared.pairs_compared == 0);
    CHECK(any_line_has(compared.not_compared,
                       "latency: the baseline measured lat send 2 B, this run lat send 4096 B"));
  }
  SECTION("a baseline from before ibkit recorded its figures' tests") {
    before.figure_subjects = {};
    const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
    CHECK(now.pairs[0].status == PairStatus::kPass);
    CHECK(any_line_has(compared.not_compared, "does not say which test"));
    CHECK(any_line_has(compared.not_compared, "the fleet's typical figures: this run has none"));
  }
}

TEST_CASE("baseline: only a pair that passed then is a reference, and a zero figure is none",
          "[rules][baseline]") {
  auto before = rows_report({row("x", "y", 100, 10, 10), row("x", "z", 0, 0, 0)}, kThen);
  before.pairs[0].status = PairStatus::kSlow;
  auto now =
      rows_report({row("x", "y", 1000, 1, 1), row("x", "z", 100, 10, 10)}, "2026-11-28T08:00:00Z");
  const auto& compared = judge_against_baseline(now, before, "base.json", 1.25);
  CHECK(now.pairs[0].status == PairStatus::kPass);
  CHECK(now.pairs[1].status == PairStatus::kPass);
  CHECK(compared.pairs_compared == 0);
  CHECK(any_line_has(compared.not_compared, "1 pair that did not pass in the baseline"));
  CHECK(any_line_has(compared.changes, "passing now: x <-> y: slow then, pass now"));
}

TEST_CASE("baseline: pairs and checks that changed, nodes gone and new, worst first",
          "[rules][baseline]") {
  auto before = rows_report({row("a", "b", 100, 10, 10), row("b", "c", 100, 10, 10)}, kThen);
  before.pairs[1].status = PairStatus::kFailed;
  before.node_checks = {test::sample_check("a", false), test::sample_check("b", true),
                        test::sample_check("c", false)};
  auto now =
      rows_report({row("a", "b", 100, 10, 10), row("b", "d", 100, 10, 10)}, "2026-11-28T08:00:00Z");
  now.pairs[0].status = PairStatus::kTimedOut;
  now.node_checks = {test::sample_check("a", true), test::sample_check("b", false),
                     test::sample_check("d", true)};
  const auto& changes = judge_against_baseline(now, before, "base.json", 1.25).changes;
  REQUIRE(changes.size() == 5);
  CHECK(changes[0] == "not passing now: a <-> b: pass then, timed_out now");
  CHECK(changes[1].rfind("failing now, passed then: a: memlock.limit node", 0) == 0);
  CHECK(changes[2] == "gone since: c");
  CHECK(changes[3].rfind("passing now, failed then: b: memlock.limit node", 0) == 0);
  CHECK(changes[4] == "new since: d");
}

TEST_CASE("baseline: the comparison and the rule survive report.json", "[rules][baseline]") {
  const SweepReport before = baseline_fleet(3);
  SweepReport now = judged_fleet(3, kLatencyUs * 4, kGbps, "2026-11-28T08:00:00Z");
  judge_against_baseline(now, before, "reports/baseline/report.json", 1.25);
  const auto read = sweep_report_from_json(nlohmann::json::parse(render_sweep_json(now)));
  REQUIRE(read.ok());
  REQUIRE(read->baseline);
  CHECK(baseline_json(*read->baseline).dump() == baseline_json(*now.baseline).dump());
  CHECK(read->figure_subjects.latency == "lat send 2 B");
  CHECK(read->figure_subjects.bandwidth == "bw write 1048576 B");
  CHECK(pair_rules_name(read->pairs[0].rules) == "fleet+baseline");
  CHECK(read->pairs[0].status == PairStatus::kSlow);
  CHECK(sweep_failed(*read));
}

TEST_CASE("baseline: ibkit report judges against --baseline and refuses what is not one",
          "[rules][baseline]") {
  SweepReport before = baseline_fleet(3);
  const auto base = test::write_scratch_file("base.json", render_sweep_json(before));
  const auto slower = judged_fleet(3, kLatencyUs * 4, kGbps, "2026-11-28T08:00:00Z");
  const auto file = test::write_scratch_file("now.json", render_sweep_json(slower));

  const auto judged = test::run_ibkit("report " + file + " --baseline " + base);
  CHECK(judged.exit_code == 1);
  CHECK(judged.out.find("Since the baseline of " + kThen + " (" + base + ", factor 1.25)") !=
        std::string::npos);
  CHECK(judged.out.find("regressed: lat send 2 B: the fleet's typical 6 us is 4x") !=
        std::string::npos);
  const auto lenient =
      test::run_ibkit("report " + file + " --baseline " + base + " --baseline-factor 5");
  CHECK(lenient.exit_code == 0);

  const auto check =
      test::write_scratch_file("check.json", render_check_json(test::sample_check("n0", false)));
  const auto not_sweep = test::run_ibkit("report " + file + " --baseline " + check);
  CHECK(not_sweep.exit_code == 2);
  CHECK(test::one_line(not_sweep.err));
  CHECK(not_sweep.err.find("--baseline " + check +
                           ": an ibkit check report; give the report.json") != std::string::npos);
  const auto missing = test::run_ibkit("report " + file + " --baseline " + base + "x");
  CHECK(missing.exit_code == 2);
  CHECK(test::one_line(missing.err));
  CHECK(missing.err.find("--baseline " + base + "x") != std::string::npos);

  const auto dir = test::scratch_path("judged");
  REQUIRE(test::run_ibkit("report " + file + " --baseline " + base + " --format json --output " +
                          dir.string())
              .exit_code == 1);
  const auto twice =
      test::run_ibkit("report " + (dir / "report.json").string() + " --baseline " + base);
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("already judged against") != std::string::npos);
  std::filesystem::remove_all(dir);
  for (const auto& path : {base, file, check}) std::filesystem::remove(path);
}

TEST_CASE("baseline: a report of ibkit.sweep/1 is a baseline too", "[rules][baseline]") {
  const std::string fixtures = std::string(ibkit::test::source_dir()) + "/tests/fixtures/reports/";
  const auto judged = test::run_ibkit("report " + fixtures + "sweep-pass.json --baseline " +
                                      fixtures + "sweep-v1.json");
  CHECK(judged.err.empty());
  CHECK(judged.exit_code <= 1);
  CHECK(judged.out.find("Since the baseline of 2026-11-22T09:00:00Z") != std::string::npos);
  CHECK(judged.out.find("of 3 pairs compared regressed") != std::string::npos);
}
