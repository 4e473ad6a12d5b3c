// How a sweep's pairs were judged, in the sentences every format shows (report/sweep_rules.hpp).
#include <catch2/catch.hpp>

#include "report/sweep_rules.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

TEST_CASE("sweep rules: the rules' counts, the fleet line, and a warning for unjudged passes",
          "[report]") {
  SweepReport report = test::sample_sweep();
  auto lines = judgment_lines(report);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "Rules that decided the pairs that passed or were slow: 1 fleet, 1 threshold.");
  CHECK_THAT(lines[1], Catch::StartsWith("The fleet rule: "));

  report.pairs[0].rules = PairRules{true, false, false, false};  // a pass nothing judged
  CHECK(passed_unjudged(report.pairs[0]));
  lines = judgment_lines(report);
  REQUIRE(lines.size() == 3);
  CHECK_THAT(lines[2], Catch::StartsWith("Warning: 1 pair passed with no rule judging"));

  report.fleet.reset();
  CHECK_THAT(judgment_lines(report)[1], Catch::Contains("not recorded"));
  CHECK(judgment_lines(SweepReport{}).empty());
}
