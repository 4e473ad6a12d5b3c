// The fleet rule's retests: which pair is measured beside a pair far from the fleet, and how the
// retest is judged (sweep_fleet_test runs them through run_sweep).
#include "rules/fleet_retest.hpp"

#include <catch2/catch.hpp>

#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

constexpr double kLatencyUs = 2.0;
constexpr double kGbps = 100;

std::size_t index_of(const SweepReport& report, const std::string& a, const std::string& b) {
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    const SweepPair& pair = report.pairs[i];
    if ((pair.a == a && pair.b == b) || (pair.a == b && pair.b == a)) return i;
  }
  FAIL("no pair " << a << "-" << b);
  return 0;
}

// All pairs of six nodes, n0-n1 at a tenth of the fleet's bandwidth.
SweepReport fleet_with_slow_pair(std::size_t* slow) {
  SweepReport report = test::all_pairs_sweep(6, kLatencyUs, kGbps);
  *slow = index_of(report, "n0", "n1");
  const SweepPair& pair = report.pairs[*slow];
  report.pairs[*slow] = test::measured_pair(pair.a, pair.b, pair.round, kLatencyUs, kGbps / 10);
  return report;
}

bool shares_node(const SweepPair& x, const SweepPair& y) {
  return x.a == y.a || x.a == y.b || x.b == y.a || x.b == y.b;
}

}  // namespace

TEST_CASE("fleet retest: the control shares no node with the far pair, and no silenced node",
          "[rules]") {
  std::size_t slow = 0;
  SweepReport report = fleet_with_slow_pair(&slow);
  const FleetFirstAttempts first{judge_fleet(report, {})};
  REQUIRE(first.far(slow));
  CHECK_FALSE(first.far(index_of(report, "n2", "n3")));

  const auto control =
      fleet_control_for(report, first, slow, [](const std::string&) { return false; });
  REQUIRE(control);
  CHECK_FALSE(shares_node(report.pairs[*control], report.pairs[slow]));

  const auto avoiding = fleet_control_for(
      report, first, slow, [](const std::string& node) { return node == "n2" || node == "n3"; });
  REQUIRE(avoiding);
  const SweepPair& chosen = report.pairs[*avoiding];
  CHECK_FALSE(shares_node(chosen, report.pairs[slow]));
  for (const std::string& node : {chosen.a, chosen.b}) CHECK((node == "n4" || node == "n5"));

  // Every other node silenced: only pairs through n0 or n1 are left, and none of them runs.
  const auto none = fleet_control_for(
      report, first, slow, [](const std::string& node) { return node != "n0" && node != "n1"; });
  CHECK_FALSE(none);
}

TEST_CASE("fleet retest: a far pair stays slow only when its retest is far too", "[rules]") {
  std::size_t slow = 0;
  SweepReport report = fleet_with_slow_pair(&slow);
  const FleetFirstAttempts first{judge_fleet(report, {})};
  REQUIRE(report.pairs[slow].status == PairStatus::kSlow);

  // The retest measured the fleet's bandwidth: it passes.
  SweepReport recovered = report;
  const SweepPair& pair = recovered.pairs[slow];
  recovered.pairs[slow] = test::measured_pair(pair.a, pair.b, pair.round, kLatencyUs, kGbps);
  recovered.pairs[slow].attempts = 2;
  judge_fleet_retests(recovered, {slow}, first, {}, 1, {});
  CHECK(recovered.pairs[slow].status == PairStatus::kPass);

  // The retest as far as the first attempt: slow, on both attempts.
  SweepReport still = report;
  const SweepPair& again = still.pairs[slow];
  still.pairs[slow] = test::measured_pair(again.a, again.b, again.round, kLatencyUs, kGbps / 10);
  still.pairs[slow].attempts = 2;
  judge_fleet_retests(still, {slow}, first, {}, 1, {});
  CHECK(still.pairs[slow].status == PairStatus::kSlow);
  CHECK_THAT(still.pairs[slow].reason, Catch::EndsWith(", on both attempts"));
}
