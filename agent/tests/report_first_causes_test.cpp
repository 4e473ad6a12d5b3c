// The verdict's first cause on the report's first lines, and a blamed node's failed checks beside
// its blame (issue 27: the cause sat at the bottom of the page).
#include <catch2/catch.hpp>

#include "report/first_causes.hpp"
#include "report/html/sweep_html.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_text.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

using test::kHostileNode;
using test::sample_check;
using test::sample_sweep;

const std::string kMemlock = "memlock.limit node: 64 KiB (expected unlimited)";

}  // namespace

TEST_CASE("a blamed node's failed checks stand beside its blame, and its blame leads the report",
          "[report]") {
  SweepReport report = sample_sweep();
  report.node_checks = {sample_check(kHostileNode, true), sample_check("lab2", true)};
  const std::string blame =
      "all 3 pairs failed: unreachable, timed_out, failed; its failed check: " + kMemlock;
  CHECK(blame_with_checks(report, report.blamed[0]) == blame);
  CHECK(first_cause(report) == kHostileNode + " blamed: " + blame);

  const std::string text = render_sweep_text(report, false, test::kUnwrapped);
  CHECK(
      text.substr(text.find('\n') + 1).rfind("blamed  " + kHostileNode + ": " + blame + "\n", 0) ==
      0);
  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::StartsWith("## ibkit validation: FAIL :x:\n\n**"));
  CHECK_THAT(md, Catch::Contains("its failed check: " + kMemlock + "**\n"));
  const std::string html = render_sweep_html(report);
  const auto banner =
      html.substr(html.find("<header"), html.find("</header>") - html.find("<header"));
  CHECK_THAT(banner, Catch::Contains("<p class=\"cause\"><b>&lt;img src=x"));
  CHECK_THAT(banner, Catch::Contains("its failed check: " + kMemlock + "</b></p>"));

  // A node whose check report passed keeps its blame as it was.
  report.node_checks = {sample_check(kHostileNode, false)};
  CHECK(blame_with_checks(report, report.blamed[0]) == report.blamed[0].reason);
  // Two blamed nodes: the first, and how many more.
  report.blamed.push_back({"lab3", "all 3 pairs slow"});
  CHECK_THAT(first_cause(report), Catch::EndsWith("(and 1 more node blamed)"));
}

TEST_CASE(
    "without a blame the first cause is the worst pair, then a node's checks, then the fabric's",
    "[report]") {
  SweepReport report = sample_sweep();
  report.blamed.clear();
  // Failed comes before timed out, unreachable and slow, whatever the sweep's order.
  CHECK(first_cause(report) == "lab3 -> " + kHostileNode +
                                   " failed: bw: no completion for 10 s <peer gone> (4 more pairs "
                                   "did not pass)");

  SweepReport checks_only;
  checks_only.node_checks = {sample_check("lab1", false), sample_check("lab2", true)};
  CHECK(first_cause(checks_only) == "checks on lab2 failed: " + kMemlock);
  CHECK_THAT(render_sweep_markdown(checks_only), Catch::Contains("**checks on lab2 failed: "));

  SweepReport fabric_only;
  CheckReport fabric = sample_check("lab1", true);
  fabric_only.fabric_checks = {fabric};
  CHECK_THAT(first_cause(fabric_only), Catch::StartsWith("fabric from lab1"));
  CHECK_THAT(first_cause(fabric_only), Catch::EndsWith(kMemlock));

  checks_only.node_checks.pop_back();
  CHECK(first_cause(checks_only).empty());
  CHECK(render_sweep_html(checks_only).find("class=\"cause\"") == std::string::npos);

  // Every pair passed, but two nodes were in none: the banner says so instead of nothing.
  SweepReport untested = sample_sweep();
  untested.pairs.resize(1);
  untested.pairs[0].status = PairStatus::kPass;
  untested.blamed.clear();
  untested.node_checks.clear();
  CHECK_THAT(first_cause(untested),
             Catch::StartsWith("2 of 4 nodes untested (in no pair that ran)"));
  CHECK_THAT(render_sweep_markdown(untested), Catch::Contains("**2 of 4 nodes untested"));
}

}  // namespace ibkit
