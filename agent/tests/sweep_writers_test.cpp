#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/sweep_report.hpp"
#include "report/html/sweep_html.hpp"
#include "report/report_formats.hpp"
#include "report/sweep_csv.hpp"
#include "report/sweep_files.hpp"
#include "report/sweep_junit.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_text.hpp"
#include "report/worst_pairs.hpp"
#include "schema/verdict_summary_json.hpp"
#include "scratch_path.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

using test::kHostileNode;
using test::sample_check;
using test::sample_sweep;

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

SweepReport passing_sweep() {
  SweepReport report = sample_sweep();
  report.nodes = {"lab1", "lab2"};
  report.pairs = {test::measured_pair("lab1", "lab2", 1, 1.5, 90)};
  report.blamed.clear();
  return report;
}

// The CSV quoting of kHostileNode: in quotes, its quotes doubled.
const std::string kHostileCsv = "\"<img src=x onerror=alert(1)>,\"\"lab|4\"\"\"";

}  // namespace

TEST_CASE("JUnit: every pair once in the pairs' suite, a suite per node with its blame and checks",
          "[report][schema]") {
  auto report = sample_sweep();
  report.node_checks = {sample_check("lab2", true), sample_check("lab9", false)};
  const std::string xml = render_sweep_junit(report);
  // The pairs; lab2 and lab9 with their checks, the hostile node with its blame; lab1 and lab3
  // have neither.
  CHECK(occurrences(xml, "<testsuite ") == 4);
  CHECK_THAT(xml, Catch::Contains("<testsuite name=\"ibkit.pairs\" hostname=\"pairs\""));
  CHECK_THAT(xml, Catch::Contains("<testsuite name=\"ibkit.sweep.lab9\" hostname=\"lab9\""));
  CHECK(xml.find("hostname=\"lab1\"") == std::string::npos);
  // lab2: its two check results, of which the memlock check failed.
  CHECK_THAT(xml, Catch::Contains("hostname=\"lab2\" timestamp=\"2026-11-22T08:00:00Z\" "
                                  "tests=\"2\" failures=\"1\""));
  CHECK_THAT(xml, Catch::Contains("<testcase classname=\"sweep.pair\" name=\"lab1 -&gt; lab2\" "
                                  "time=\"2.5\"></testcase>"));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"failed: bw: no completion for 10 s "
                                  "&lt;peer gone&gt;\" type=\"sweep.pair\">"));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"not_run: sweep deadline passed\""));
  CHECK_THAT(xml, Catch::Contains("classname=\"memlock.limit\" name=\"node\""));
  // Each of the 6 pairs once (5 of them bad), one blame, three check results (one failed): a CI
  // dashboard that sums the suites counts 7 failures, each once (it counted 12 when every pair
  // was in both of its nodes' suites).
  CHECK(occurrences(xml, "classname=\"sweep.pair\"") == 6);
  CHECK(occurrences(xml, "classname=\"sweep.blame\"") == 1);
  CHECK_THAT(xml, Catch::Contains("<testsuites name=\"ibkit.sweep\" tests=\"10\" failures=\"7\""));
  CHECK(xml.find("<img") == std::string::npos);
  CHECK_THAT(xml, Catch::Contains("&lt;img src=x onerror=alert(1)&gt;,&quot;lab|4&quot;"));
}

TEST_CASE("CSV: nodes on both axes, figures of the right sizes, status words, quoting",
          "[report][schema]") {
  const std::string latency = render_sweep_csv(sample_sweep(), "latency_us");
  const auto rows = lines_of(latency);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == "latency_us,lab1,lab2,lab3," + kHostileCsv);
  // lab1-lab2 1.5 us (the 2 B size, not 4 KiB), lab1-lab3 slow but measured, lab1-lab4 timed out.
  CHECK(rows[1] == "lab1,,1.5,3,timed_out");
  // lab2-lab3 was not run: an empty cell; lab2-lab4 unreachable.
  CHECK(rows[2] == "lab2,1.5,,,unreachable");
  CHECK(rows[3] == "lab3,3,,,failed");
  CHECK(rows[4] == kHostileCsv + ",timed_out,unreachable,failed,");

  const auto bandwidth = lines_of(render_sweep_csv(sample_sweep(), "bandwidth_gbps"));
  CHECK(bandwidth[0].rfind("bandwidth_gbps,", 0) == 0);
  CHECK(bandwidth[1] == "lab1,,90,40,timed_out");

  CHECK_THROWS_AS(render_sweep_csv(sample_sweep(), "latency"), std::invalid_argument);
}

TEST_CASE("CSV: one matrix per rail, told apart by a rail column", "[report][schema]") {
  auto report = passing_sweep();
  report.rails = 2;
  auto rail1 = test::measured_pair("lab1", "lab2", 1, 2.5, 45);
  rail1.rail = 1;
  report.pairs.push_back(rail1);
  const auto rows = lines_of(render_sweep_csv(report, "latency_us"));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == "rail,latency_us,lab1,lab2");
  CHECK(rows[1] == "0,lab1,,1.5");
  CHECK(rows[2] == "0,lab2,1.5,");
  CHECK(rows[3] == "1,lab1,,2.5");
  CHECK(rows[4] == "1,lab2,2.5,");
}

TEST_CASE("CSV: a text cell a spreadsheet would run as a formula starts with a quote",
          "[report][schema]") {
  auto report = passing_sweep();
  report.nodes = {"=1+1", "-2", "@A1"};
  // A negative figure is a number, and stays one.
  report.pairs = {test::measured_pair("=1+1", "-2", 1, -1.5, 90)};
  auto broken = test::measured_pair("-2", "@A1", 1, 2, 90);
  broken.status = PairStatus::kFailed;
  report.pairs.push_back(broken);
  const auto rows = lines_of(render_sweep_csv(report, "latency_us"));
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == "latency_us,'=1+1,'-2,'@A1");
  CHECK(rows[1] == "'=1+1,,-1.5,");
  CHECK(rows[2] == "'-2,-1.5,,failed");
  CHECK(rows[3] == "'@A1,,failed,");

  // A tab or CR before a formula is shown as text, as every control is: no cell starts with one.
  report.nodes = {"+x", "\ty", "\r=z"};
  report.pairs.clear();
  CHECK(lines_of(render_sweep_csv(report, "latency_us"))[0] == "latency_us,'+x,\\ty,\\r=z");
}

TEST_CASE("Markdown: verdict, blame, pairs that did not pass, checks and both matrices",
          "[report][schema]") {
  auto report = sample_sweep();
  report.node_checks = {sample_check("lab2", true)};
  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::StartsWith("## ibkit validation: FAIL"));
  CHECK_THAT(md, Catch::Contains("4 nodes, 6 pairs in 3 rounds (1 pass, 1 slow, 1 failed, "
                                 "1 timed_out, 1 unreachable, 1 not_run)"));
  // Every '<' escaped: no tag; readable as text, no HTML entities.
  for (std::size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1)) {
    CHECK(at > 0);
    CHECK(md[at - 1] == '\\');
  }
  CHECK(md.find("&lt;") == std::string::npos);
  const std::string hostile = "\\<img src=x onerror=alert(1)>,\"lab\\|4\"";
  CHECK_THAT(md, Catch::Contains("| " + hostile + " | all 3 pairs failed"));
  CHECK_THAT(md, Catch::Contains("| lab3 -> " + hostile +
                                 " | **failed** | bw: no completion "
                                 "for 10 s \\<peer gone> |"));
  CHECK_THAT(md, Catch::Contains("| lab2 | **fail** | memlock.limit node: 64 KiB (expected "
                                 "unlimited); raise memlock"));
  CHECK_THAT(md, Catch::Contains("| **lab1** | - | 1.5 | 3 (slow) | **timed_out** |"));
  CHECK_THAT(md, Catch::Contains("| **lab1** | - | 90 | 40 (slow) | **timed_out** |"));
  // blamed, pairs, how they were judged, checks and the two matrices
  CHECK(occurrences(md, "\n### ") == 6);
}

TEST_CASE("Markdown leaves the matrices of a large sweep to the CSV and HTML files",
          "[report][schema]") {
  auto report = passing_sweep();
  for (int i = 3; i <= 40; ++i) {
    report.nodes.push_back("lab" + std::to_string(i));
    report.pairs.push_back(report.pairs[0]);
    report.pairs.back().b = report.nodes.back();
  }
  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::StartsWith("## ibkit validation: PASS"));
  CHECK(md.find("### Latency") == std::string::npos);
  CHECK_THAT(md, Catch::Contains("The matrices of 40 nodes are in latency.csv"));
}

TEST_CASE("HTML: self-contained, escaped, failed pairs marked, figures on hover",
          "[report][schema]") {
  auto report = sample_sweep();
  report.node_checks = {sample_check("lab2", true)};
  const std::string html = render_sweep_html(report);
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  CHECK_THAT(html, Catch::Contains("<header class=\"verdict fail\">"));
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK_THAT(html, Catch::Contains("&lt;img src=x onerror=alert(1)&gt;,&quot;lab|4&quot;"));
  // Three broken pairs, each in two cells of two heatmaps, and the legend's key.
  CHECK(occurrences(html, "<td class=\"broken\"") == 12 + 3);
  CHECK_THAT(html, Catch::Contains(">timed out</td>"));
  CHECK(occurrences(html, ">not run</td>") == 4);
  CHECK(occurrences(html, "<th scope=\"col\" class=\"blamed\"") == 2);
  CHECK_THAT(html, Catch::Contains("title=\"lab1 -&gt; lab2: pass\nround 1, 1 attempt, 2.5 s, "
                                   "latency 1.5 us, bandwidth 90 Gb/s, rule fleet\">1.5</td>"));
  CHECK_THAT(html, Catch::Contains("bw: no completion for 10 s &lt;peer gone&gt;"));
  CHECK_THAT(html, Catch::Contains("<details open><summary>lab2: FAIL (1 failed: memlock.limit;"));
  CHECK_THAT(html, Catch::Contains("<tr class=\"status-fail\"><td>fail</td><td>memlock.limit"));
}

TEST_CASE("HTML of a passing sweep has no red: a green banner and coloured cells only",
          "[report][schema]") {
  const std::string html = render_sweep_html(passing_sweep());
  CHECK_THAT(html, Catch::Contains("<header class=\"verdict pass\">"));
  CHECK(html.find("class=\"broken\"") == std::string::npos);
  CHECK(html.find("class=\"blamed\"") == std::string::npos);
  CHECK(occurrences(html, "style=\"background:hsl(130,65%,50%)\"") == 4);
}

TEST_CASE("HTML leaves the heatmaps of a sweep too large to draw to the CSV files",
          "[report][schema]") {
  auto report = passing_sweep();
  for (int i = 3; i <= 1100; ++i) report.nodes.push_back("n" + std::to_string(i));
  const std::string html = render_sweep_html(report);
  CHECK(html.size() < 500 * 1024);
  CHECK(html.find("class=\"heatmap\"") == std::string::npos);
  CHECK(html.find("<canvas") == std::string::npos);
  CHECK_THAT(html, Catch::Contains("1100 nodes are too many for a heatmap (it draws up to 1024 "
                                   "nodes); latency.csv and bandwidth.csv hold the matrices."));
}

TEST_CASE("text ends with the verdict and counts", "[report][schema]") {
  const std::string text = render_sweep_text(sample_sweep(), false);
  CHECK_THAT(text, Catch::Contains("failed  lab3 -> " + kHostileNode));
  CHECK_THAT(text, Catch::EndsWith("FAIL: blamed nodes 1, pairs not passed 5 of 6, failed node "
                                   "checks 0 of 0\n"));
  CHECK(text.find("\033[") == std::string::npos);
  CHECK_THAT(render_sweep_text(passing_sweep(), true), Catch::Contains("\033[32mPASS\033[0m"));
}

TEST_CASE("text, Markdown and HTML list the pairs whose ends differ, passing or not",
          "[report][schema]") {
  auto report = passing_sweep();
  CHECK_THAT(render_sweep_markdown(report), !Catch::Contains("Pairs with warnings"));
  CHECK_THAT(render_sweep_html(report), !Catch::Contains("Pairs with warnings"));
  CHECK_THAT(render_sweep_text(report, false), !Catch::Contains("warn "));

  report.pairs[0].report->results.push_back(
      {"pair.ends", "lab1 <-> lab2", Status::kWarn,
       "active MTU lab1 1024, lab2 512 (the path runs at 512)",
       "the same active MTU and port data rate on both ends", "set the same <MTU> everywhere"});
  // A warning leaves the verdict alone.
  CHECK_FALSE(sweep_failed(report));
  const std::string text = render_sweep_text(report, false);
  CHECK_THAT(text, Catch::Contains("warn  lab1 -> lab2: pair.ends: active MTU lab1 1024, lab2 512 "
                                   "(the path runs at 512)\n"));
  CHECK_THAT(text, Catch::Contains("PASS"));
  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::Contains("### Pairs with warnings"));
  CHECK_THAT(md, Catch::Contains("| lab1 -> lab2 | pass | pair.ends: active MTU lab1 1024, lab2 "
                                 "512 (the path runs at 512) | set the same \\<MTU> everywhere |"));
  const std::string html = render_sweep_html(report);
  CHECK_THAT(html, Catch::Contains("<h2>Pairs with warnings</h2>"));
  CHECK_THAT(html,
             Catch::Contains("<td>active MTU lab1 1024, lab2 512 (the path runs at 512)</td>"));
  CHECK_THAT(html, Catch::Contains("set the same &lt;MTU&gt; everywhere"));
  CHECK_THAT(html, Catch::Contains("header class=\"verdict pass\""));
}

TEST_CASE("report files: every format into a new directory, or the chosen ones",
          "[report][schema]") {
  const auto dir = ibkit::test::scratch_path("report-files") / "run";
  std::filesystem::remove_all(dir.parent_path());
  auto written = write_sweep_reports(sample_sweep(), dir.string(), {"all"});
  REQUIRE(written.ok());
  CHECK(written->size() == 7);
  for (const char* name : {"report.json", "junit.xml", "summary.md", "latency.csv", "bandwidth.csv",
                           "report.html", "summary.json"}) {
    CHECK(std::filesystem::file_size(dir / name) > 100);
  }
  std::ifstream csv(dir / "bandwidth.csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header.rfind("bandwidth_gbps,", 0) == 0);

  std::filesystem::remove_all(dir);
  written = write_sweep_reports(sample_sweep(), dir.string(), {"junit", "csv"});
  REQUIRE(written.ok());
  CHECK(*written == std::vector<std::string>{(dir / "junit.xml").string(),
                                             (dir / "latency.csv").string(),
                                             (dir / "bandwidth.csv").string()});
  CHECK_FALSE(std::filesystem::exists(dir / "report.html"));

  auto unknown = write_sweep_reports(sample_sweep(), dir.string(), {"pdf"});
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::StartsWith("no report format \"pdf\""));

  // A directory in place of the file: the error names the file.
  std::filesystem::create_directories(dir / "report.html");
  auto blocked = write_sweep_reports(sample_sweep(), dir.string(), {"html"});
  REQUIRE_FALSE(blocked.ok());
  CHECK_THAT(blocked.error().message, Catch::StartsWith((dir / "report.html").string() + ": "));
  std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("a report of checks alone has no pair sections, counts or matrices", "[report]") {
  SweepReport report;
  report.generated_at = "2026-11-22T09:00:00Z";
  report.nodes = {"lab1", "lab2"};
  report.node_checks = {sample_check("lab1", false), sample_check("lab2", true)};
  const auto dir = ibkit::test::scratch_path("checks-only") / "run";
  std::filesystem::remove_all(dir.parent_path());
  // Another run's matrices in the directory go: they are not this report's.
  REQUIRE(write_sweep_reports(sample_sweep(), dir.string(), {"csv"}).ok());
  auto written = write_sweep_reports(report, dir.string(), {"all"});
  REQUIRE(written.ok());
  CHECK(written->size() == 5);
  CHECK_FALSE(std::filesystem::exists(dir / "latency.csv"));
  CHECK_FALSE(std::filesystem::exists(dir / "bandwidth.csv"));
  std::filesystem::remove_all(dir.parent_path());

  const std::string text = render_sweep_text(report, false);
  CHECK_THAT(text, Catch::StartsWith("ibkit report: 2 nodes, 2 node check reports\n"));
  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::Contains("\n2 nodes, 2 node check reports at "));
  CHECK(md.find("pairs") == std::string::npos);
  const std::string html = render_sweep_html(report);
  CHECK_THAT(html, Catch::Contains("<p>2 nodes, 2 node check reports; "));
  CHECK(html.find("Nodes, worst first") == std::string::npos);
  CHECK(html.find("0 pairs") == std::string::npos);
}

TEST_CASE("the report files table names summary.json, and json still prints report.json",
          "[report]") {
  const auto names = report_file_names();
  CHECK(names == std::vector<std::string>{"report.json", "junit.xml", "summary.md", "latency.csv",
                                          "bandwidth.csv", "report.html", "summary.json"});
  const auto printable = report_stdout_formats();
  CHECK(std::find(printable.begin(), printable.end(), "json") != printable.end());
  CHECK(std::find(printable.begin(), printable.end(), "csv") == printable.end());
  const auto report = sample_sweep();
  CHECK(render_report(report, "json", false).find("\"ibkit.sweep/3\"") != std::string::npos);
}

TEST_CASE("summary.json and report.html list the bad pairs in one order",
          "[report][schema][model]") {
  auto report = sample_sweep();
  const auto summary = nlohmann::json::parse(render_verdict_summary_json(report));
  const auto listed = worst_pairs(report, kListedPairs).listed;
  REQUIRE(summary["worst_pairs"].size() == listed.size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    CHECK(summary["worst_pairs"][i]["a"] == listed[i]->a);
    CHECK(summary["worst_pairs"][i]["b"] == listed[i]->b);
    CHECK(summary["worst_pairs"][i]["status"] == std::string(pair_status_name(listed[i]->status)));
  }
}

TEST_CASE("summary.json words the verdict: blame, failed checks, the worst pairs first, capped",
          "[report][schema]") {
  auto report = sample_sweep();
  report.node_checks = {ibkit::test::sample_check("lab2", true)};
  auto summary = nlohmann::json::parse(render_verdict_summary_json(report));
  CHECK(summary["schema"] == "ibkit.summary/1");
  CHECK(summary["verdict"] == "fail");
  CHECK(summary["nodes"] == 4);
  CHECK(summary["pairs"] == 6);
  CHECK(summary["counts"]["failed"] == 1);
  CHECK(summary["blamed"][0]["node"] == ibkit::test::kHostileNode);
  REQUIRE(summary["failed_checks"].size() == 1);
  CHECK(summary["failed_checks"][0]["host"] == "lab2");
  // Failed, timed out, unreachable, slow, not run (pair_status_rank); no pass. The sample lists
  // the unreachable pair before the timed-out one.
  REQUIRE(summary["worst_pairs"].size() == 5);
  CHECK(summary["worst_pairs"][0]["status"] == "failed");
  CHECK(summary["worst_pairs"][0]["reason"] == report.pairs[1].reason);
  CHECK(summary["worst_pairs"][1]["status"] == "timed_out");
  CHECK(summary["worst_pairs"][2]["status"] == "unreachable");
  CHECK(summary["worst_pairs"][3]["status"] == "slow");
  CHECK(summary["worst_pairs"][4]["status"] == "not_run");
  CHECK(summary["more_pairs"] == 0);

  for (int i = 0; i < 60; ++i) report.pairs.push_back(report.pairs[1]);
  summary = nlohmann::json::parse(render_verdict_summary_json(report));
  CHECK(summary["worst_pairs"].size() == 50);
  CHECK(summary["more_pairs"] == 65 - 50);
  CHECK(summary["worst_pairs"][49]["status"] == "failed");

  report.pairs.resize(1);
  report.blamed.clear();
  report.node_checks.clear();
  summary = nlohmann::json::parse(render_verdict_summary_json(report));
  CHECK(summary["verdict"] == "fail");  // two of the four nodes are in no pair now
  CHECK(summary["untested"].size() == 2);
  CHECK(summary["more_untested"] == 0);
  report.nodes = {report.pairs[0].a, report.pairs[0].b};
  summary = nlohmann::json::parse(render_verdict_summary_json(report));
  CHECK(summary["verdict"] == "pass");
  CHECK_FALSE(summary.contains("untested"));
  CHECK(summary["worst_pairs"].empty());
}

TEST_CASE("every format says which rule decided each pair, and how the fleet was judged",
          "[report][schema]") {
  const auto report = sample_sweep();
  const std::string fleet_line =
      "The fleet rule: slow past a line drawn from the fleet's own spread, no looser than 0.33x "
      "its typical bandwidth or 3x its typical latency; typical: bw write 1048576 B 90 Gb/s (3 "
      "nodes; slow below 0.33x), lat send 2 B 1.5 us (3 nodes; slow above 3x).";
  const std::string rules_line =
      "Rules that decided the pairs that passed or were slow: 1 fleet, 1 threshold.";

  const std::string text = render_sweep_text(report, false, test::kUnwrapped);
  CHECK_THAT(text, Catch::Contains("slow  lab1 -> lab3: bandwidth 40 Gb/s below 80 Gb/s (round 2, "
                                   "1 attempt, 2.5 s, latency 3 us, bandwidth 40 Gb/s, rule "
                                   "threshold)\n"));
  CHECK_THAT(text, Catch::Contains(rules_line + "\n" + fleet_line + "\n"));
  // A failed pair has no figure rule: its reason says why.
  CHECK_THAT(text, Catch::Contains("(round 1, 2 attempts, 2.5 s, latency 2 us)\n"));

  const std::string md = render_sweep_markdown(report);
  CHECK_THAT(md, Catch::Contains("### How the pairs were judged\n\n- " + rules_line));
  CHECK_THAT(md, Catch::Contains("rule threshold |"));

  const std::string html = render_sweep_html(report);
  CHECK_THAT(html, Catch::Contains("<h2>How the pairs were judged</h2>"));
  CHECK_THAT(html,
             Catch::Contains("<li>The fleet rule: slow past a line drawn from the fleet&apos;s "
                             "own spread"));

  const std::string xml = render_sweep_junit(report);
  CHECK_THAT(xml, Catch::Contains("rule threshold"));
}

TEST_CASE("a pass no rule judged is said so: a warning in the text, MD, HTML and JUnit",
          "[report][schema]") {
  SweepReport report = passing_sweep();
  report.pairs[0].rules = {};
  report.fleet = FleetJudgment{};  // on, but 2 nodes: no typical figure
  const std::string warning =
      "Warning: 1 pair passed with no rule judging the figures: set [thresholds], or sweep 3 "
      "nodes or more for the fleet rule.";
  const std::string text = render_sweep_text(report, false, test::kUnwrapped);
  CHECK_THAT(text, Catch::Contains("The fleet rule did not apply: it needs 3 nodes"));
  CHECK_THAT(text, Catch::Contains(warning));
  CHECK_THAT(text, Catch::Contains("PASS: "));  // a warning, not a failure
  CHECK_THAT(render_sweep_markdown(report),
             Catch::Contains("- Warning: 1 pair passed with no rule judging the figures: set "
                             "\\[thresholds\\], or sweep 3"));
  CHECK_THAT(render_sweep_html(report), Catch::Contains("<li>" + warning + "</li>"));
  const std::string xml = render_sweep_junit(report);
  CHECK_THAT(xml, Catch::Contains("<system-out>warning: observed: pass: round 1, 1 attempt, 2.5 s, "
                                  "latency 1.5 us, bandwidth 90 Gb/s, rule none"));
  CHECK_THAT(xml, Catch::Contains("failures=\"0\""));

  report.fleet->factors.on = false;
  CHECK_THAT(render_sweep_text(report, false),
             Catch::Contains("The fleet rule: off ([thresholds] fleet = false)."));
}

TEST_CASE("a report from before rules were recorded says so instead of guessing",
          "[report][schema]") {
  SweepReport report = sample_sweep();
  report.fleet.reset();
  for (auto& pair : report.pairs) pair.rules.recorded = false;
  const std::string text = render_sweep_text(report, false, test::kUnwrapped);
  CHECK_THAT(text, Catch::Contains("rule not recorded)"));
  CHECK_THAT(text, Catch::Contains(
                       "The fleet rule: not recorded (a report from before ibkit judged fleets)."));
  CHECK(text.find("Warning:") == std::string::npos);
}

}  // namespace ibkit
