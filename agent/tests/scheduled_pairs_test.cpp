// A sweep report's pairs laid out from its schedule, before any runs (the coordinator's first
// step).
#include "schedule/scheduled_pairs.hpp"

#include <catch2/catch.hpp>

using namespace ibkit;

TEST_CASE("scheduled pairs: each round on every rail in turn, named by the hosts", "[schedule]") {
  const std::vector<SweepHost> hosts = {
      {"n0", "10.0.0.1", 1}, {"n1", "10.0.0.2", 1}, {"n2", "10.0.0.3", 1}, {"n3", "10.0.0.4", 1}};
  SweepReport report;
  const auto steps = add_scheduled_pairs(report, hosts, all_pairs_schedule(4), 2);
  // 3 rounds of 2 pairs, each round on rail 0 and then rail 1: 6 steps of 2 pairs.
  REQUIRE(steps.size() == 6);
  REQUIRE(report.pairs.size() == 12);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    REQUIRE(steps[s].size() == 2);
    for (std::size_t index : steps[s]) {
      const SweepPair& pair = report.pairs[index];
      CHECK(pair.rail == static_cast<int>(s % 2));
      CHECK(pair.round == static_cast<int>(s / 2) + 1);
      CHECK(pair.status == PairStatus::kNotRun);
      CHECK(pair.attempts == 0);
    }
    // A step's pairs share no node.
    const SweepPair& x = report.pairs[steps[s][0]];
    const SweepPair& y = report.pairs[steps[s][1]];
    CHECK((x.a != y.a && x.a != y.b && x.b != y.a && x.b != y.b));
  }
  // The same pairs on both rails of a round.
  CHECK(report.pairs[steps[0][0]].a == report.pairs[steps[1][0]].a);
  CHECK(report.pairs[steps[0][0]].b == report.pairs[steps[1][0]].b);
}
