// The latency tail in the fleet rule: a node that loses a few percent of its packets stalls that
// many round trips for an ACK timeout, which the median and the minimum hardly show and the p99
// does. Figures from the emulated lab (docs/verdicts.md): healthy p99s 2.8-4.7 ms, at most
// 1.33x the fleet's typical one; with a node losing 3%, 22-31 ms for a median of 0.5-0.8 ms.
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

constexpr double kGbps = 27;

bool involves(const SweepPair& pair, const std::string& node) {
  return pair.a == node || pair.b == node;
}

// The pair's 2 B latency size: its median, minimum and p99 (us), from `iterations` round trips.
void set_latency(SweepPair& pair, double median_us, double p99_us,
                 std::uint64_t iterations = 1000) {
  SizeMeasurement& size = pair.report->outcomes[0].verbs->sizes[1];
  size.iterations = iterations;
  size.latency->typical_us = median_us;
  size.latency->min_us = median_us * 0.4;
  size.latency->p99_us = p99_us;
  pair.status = PairStatus::kPass;
  pair.rules = {};
  pair.reason.clear();
}

// All pairs of n nodes at the lab's healthy figures, each drawn from its measured range; a
// pair with `lossy` gets a lossy node's figures instead.
template <class Lossy>
SweepReport lab_fleet(int n, std::mt19937& random, Lossy lossy) {
  std::uniform_real_distribution<double> median(300, 800);
  std::uniform_real_distribution<double> lossy_median(500, 800);
  std::uniform_real_distribution<double> healthy_tail(2'800, 4'700);
  std::uniform_real_distribution<double> lossy_tail(22'000, 31'000);
  SweepReport report = test::all_pairs_sweep(n, 600, kGbps);
  for (auto& pair : report.pairs) {
    const bool bad = lossy(pair);
    set_latency(pair, bad ? lossy_median(random) : median(random),
                bad ? lossy_tail(random) : healthy_tail(random));
  }
  judge_fleet(report, FleetFactors{});
  blame_nodes(report);
  return report;
}

}  // namespace

TEST_CASE("fleet tail: a node losing packets is blamed on its pairs' p99 alone", "[rules]") {
  std::mt19937 random(23);
  for (int n : {3, 4, 16}) {
    SweepReport report = lab_fleet(n, random, [](const SweepPair& p) { return involves(p, "n1"); });
    INFO(n << " nodes\n" << test::pairs_not_passed(report));
    REQUIRE(report.blamed.size() == 1);
    CHECK(report.blamed[0].node == "n1");
    for (const auto& pair : report.pairs) {
      CHECK(pair.status == (involves(pair, "n1") ? PairStatus::kSlow : PairStatus::kPass));
      if (!involves(pair, "n1")) continue;
      // The tail is what decided: the median stays inside the factor.
      CHECK_THAT(pair.reason, Catch::Contains("lat send 2 B p99: "));
      CHECK_THAT(pair.reason, !Catch::Contains("lat send 2 B: "));
    }
    REQUIRE(report.fleet);
    bool tail_reference = false;
    for (const auto& reference : report.fleet->references) {
      tail_reference = tail_reference || reference.subject == "lat send 2 B p99";
    }
    CHECK(tail_reference);
  }
}

TEST_CASE("fleet tail: 1000 healthy lab fleets with their measured spread flag nothing",
          "[rules]") {
  std::mt19937 random(7);
  for (int n : {3, 4, 16}) {
    for (int run = 0; run < 1000 / 3; ++run) {
      SweepReport report = lab_fleet(n, random, [](const SweepPair&) { return false; });
      INFO(n << " nodes, run " << run << "\n" << test::pairs_not_passed(report));
      REQUIRE(test::pairs_not_passed(report).empty());
    }
  }
}

TEST_CASE("fleet tail: far by its ratio but less than a millisecond above is not slow", "[rules]") {
  // Real fabrics: a 2 us median, a 5 us p99; one pair's p99 100x that, 0.5 ms: scheduling, not
  // a retransmission.
  SweepReport report = test::all_pairs_sweep(3, 2, kGbps);
  for (auto& pair : report.pairs) set_latency(pair, 2, 5);
  set_latency(report.pairs[0], 2, 500);
  judge_fleet(report, FleetFactors{});
  CHECK(test::pairs_not_passed(report).empty());

  set_latency(report.pairs[0], 2, 1'100);  // 220x, 1.095 ms above: a retransmission's cost
  judge_fleet(report, FleetFactors{});
  CHECK(report.pairs[0].status == PairStatus::kSlow);
  CHECK_THAT(report.pairs[0].reason,
             Catch::Contains("lat send 2 B p99: 1100 us is 220x the fleet's typical 5 us"));
}

TEST_CASE("fleet tail: a p99 from fewer than 100 round trips is not compared", "[rules]") {
  SweepReport report = test::all_pairs_sweep(3, 600, kGbps);
  for (auto& pair : report.pairs) set_latency(pair, 600, 3'500, 99);
  set_latency(report.pairs[0], 600, 30'000, 99);
  judge_fleet(report, FleetFactors{});
  CHECK(test::pairs_not_passed(report).empty());
  REQUIRE(report.fleet);
  for (const auto& reference : report.fleet->references) {
    CHECK(reference.subject != "lat send 2 B p99");
  }
}

TEST_CASE(
    "fleet tail: a pair measured beside a control is slow only when its tail is far from "
    "the control's too",
    "[rules]") {
  SweepReport report = test::all_pairs_sweep(3, 600, kGbps);
  for (auto& pair : report.pairs) set_latency(pair, 600, 3'500);
  set_latency(report.pairs[0], 600, 25'000);
  const auto references = fleet_baseline(report, FleetFactors{});
  const FleetVerdict verdict = fleet_verdict(report.pairs[0], references, FleetFactors{});
  REQUIRE(verdict.shortfalls.size() == 1);
  CHECK(verdict.shortfalls[0].figure.tail);

  // A control with a healthy tail confirms it; one whose tail stalled as much (a busy moment
  // for everyone) does not.
  SweepPair control = report.pairs[1];
  CHECK(confirm_with_control(verdict, control, 1).shortfalls.size() == 1);
  set_latency(control, 600, 20'000);
  CHECK(confirm_with_control(verdict, control, 1).shortfalls.empty());
}
