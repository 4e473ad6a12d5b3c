// What changed since the baseline, as the lines every format shows first
// (report/baseline_lines.hpp).
#include <catch2/catch.hpp>

#include "model/baseline_comparison.hpp"
#include "report/baseline_lines.hpp"

using namespace ibkit;

TEST_CASE("baseline lines: the headline with its counts, then regressions, changes and gaps",
          "[report]") {
  BaselineComparison baseline;
  baseline.file = "reports/baseline/report.json";
  baseline.generated_at = "2026-11-28T02:28:03Z";
  baseline.factor = 1.25;
  baseline.regressions = {
      "lat send 2 B rail 0: the fleet's typical 1500 us is 3.0x the "
      "baseline's 500 us"};
  baseline.pairs_regressed = 3;
  baseline.pairs_compared = 3;
  baseline.changes = {"lab4: new"};
  baseline.not_compared = {"the baseline's bandwidth is of another size"};
  CHECK(baseline_headline(baseline) ==
        "Since the baseline of 2026-11-28T02:28:03Z (reports/baseline/report.json, factor 1.25): "
        "1 typical figure regressed, 3 of 3 pairs compared regressed.");
  const auto lines = baseline_lines(baseline);
  REQUIRE(lines.size() >= 4);
  CHECK(lines[0] == baseline_headline(baseline));
  CHECK_THAT(lines[1], Catch::StartsWith("regressed: lat send 2 B rail 0"));
  bool gap = false;
  for (const auto& line : lines) gap |= line.rfind("not compared: ", 0) == 0;
  CHECK(gap);
}
