#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/sweep_report.hpp"
#include "report/html/heatmap_codes.hpp"
#include "report/html/node_overview.hpp"
#include "report/html/script_json.hpp"
#include "report/html/sweep_html.hpp"
#include "report/worst_pairs.hpp"
#include "sweep_sample.hpp"
#include "util/base64.hpp"

namespace ibkit {
namespace {

namespace code = heatmap_code;
using test::kHostileNode;
using test::measured_pair;
using test::sample_check;
using test::sample_sweep;

// `n` nodes n0.. (the last one kHostileNode), every pair measured once: n3's pairs slow at ten
// times the latency, n1-n2 failed, n5-n6 not run, n3 blamed.
SweepReport fabric(int n) {
  SweepReport report = sample_sweep();
  report.nodes.clear();
  report.pairs.clear();
  for (int i = 0; i < n - 1; ++i) report.nodes.push_back("n" + std::to_string(i));
  report.nodes.push_back(kHostileNode);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const auto& a = report.nodes[static_cast<std::size_t>(i)];
      const auto& b = report.nodes[static_cast<std::size_t>(j)];
      const bool slow = i == 3 || j == 3;
      auto pair = measured_pair(a, b, 1, slow ? 16 : 1.6, slow ? 9.5 : 95);
      if (slow) pair.status = PairStatus::kSlow;
      if (i == 1 && j == 2) pair.status = PairStatus::kFailed;
      if (i == 5 && j == 6)
        pair = {a, b, 0, 1, PairStatus::kNotRun, "deadline", 0, 0.0, {}, {}, {}, {}};
      report.pairs.push_back(pair);
    }
  }
  report.blamed = {{"n3", "all pairs slow"}};
  return report;
}

std::size_t cell(const SweepReport& report, std::size_t row, std::size_t column) {
  return row * report.nodes.size() + column;
}

bool is_pass_code(std::uint8_t c) { return c >= code::kPassFirst && c < code::kSlowFirst; }

}  // namespace

TEST_CASE("canvas codes: a failed pair is never drawn as a pass, whatever it measured",
          "[report]") {
  const HeatmapScale scale{3.2, 1.6};
  auto pair = measured_pair("a", "b", 1, 1.6, 95);
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kPassFirst + 119);
  pair.status = PairStatus::kFailed;
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kFailed);
  pair.status = PairStatus::kTimedOut;
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kTimedOut);
  pair.status = PairStatus::kUnreachable;
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kUnreachable);
  pair.status = PairStatus::kSlow;
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kSlowFirst + 119);
  pair.status = PairStatus::kNotRun;
  CHECK(heatmap_code_of(&pair, MatrixFigure::kLatencyUs, true, scale) == code::kNotRun);
  CHECK(heatmap_code_of(nullptr, MatrixFigure::kLatencyUs, true, scale) == code::kNone);
  // At the worst end of the scale, and beyond it.
  auto far = measured_pair("a", "b", 1, 9, 10);
  CHECK(heatmap_code_of(&far, MatrixFigure::kLatencyUs, true, scale) == code::kPassFirst);
}

TEST_CASE("canvas colours: broken red, slow brown, not run grey, a pass amber to green",
          "[report]") {
  const auto colours = heatmap_colours();
  REQUIRE(colours.size() == 256);
  for (auto broken : {code::kFailed, code::kTimedOut, code::kUnreachable})
    CHECK(colours[broken] == "#d50000");
  CHECK(colours[code::kNotRun] == "#d8d8d8");
  CHECK(colours[code::kNone] == "#ffffff");
  CHECK(colours[code::kSlowFirst] == "#8a4b00");
  CHECK(colours[code::kSlowFirst + code::kLevels - 1] == "#8a4b00");
  // hsl(130,65%,50%) and hsl(40,65%,62%), the table heatmap's ends.
  CHECK(colours[code::kPassFirst + code::kLevels - 1] == "#2dd248");
  CHECK(colours[code::kPassFirst] == "#ddb35f");
  for (int level = 0; level < code::kLevels; ++level) {
    const auto& colour = colours[static_cast<std::size_t>(code::kPassFirst + level)];
    CHECK(colour != "#d50000");
    CHECK(colour != "#8a4b00");
  }
}

TEST_CASE("canvas labels name the status and the figure of the level", "[report]") {
  const auto labels = heatmap_labels(MatrixFigure::kLatencyUs, HeatmapScale{3.2, 1.6});
  CHECK(labels[code::kFailed] == "failed");
  CHECK(labels[code::kTimedOut] == "timed out");
  CHECK(labels[code::kPassFirst + code::kLevels - 1] == "pass, ~1.6 us");
  CHECK(labels[code::kSlowFirst] == "slow, ~3.2 us");
  CHECK(labels[code::kNone].empty());
}

TEST_CASE("the worse of two codes: broken over slow over not run over a pass", "[report]") {
  const std::uint8_t good = code::kPassFirst + 100, poor = code::kPassFirst + 3;
  CHECK(worse_code(good, code::kFailed) == code::kFailed);
  CHECK(worse_code(code::kUnreachable, code::kSlowFirst) == code::kUnreachable);
  CHECK(worse_code(good, code::kSlowFirst + 100) == code::kSlowFirst + 100);
  CHECK(worse_code(code::kNotRun, good) == code::kNotRun);
  CHECK(worse_code(good, poor) == poor);
  CHECK(worse_code(code::kNone, good) == good);
}

TEST_CASE("canvas matrix: both cells of a pair, the worst of its rails", "[report]") {
  auto report = fabric(8);
  const auto scale = heatmap_scale(report, MatrixFigure::kLatencyUs, std::nullopt);
  auto codes = heatmap_codes(report, MatrixFigure::kLatencyUs, scale);
  REQUIRE(codes.size() == 64);
  CHECK(codes[cell(report, 1, 2)] == code::kFailed);
  CHECK(codes[cell(report, 2, 1)] == code::kFailed);
  CHECK(codes[cell(report, 6, 5)] == code::kNotRun);
  CHECK(codes[cell(report, 0, 3)] >= code::kSlowFirst);
  CHECK(codes[cell(report, 3, 7)] >= code::kSlowFirst);
  CHECK(is_pass_code(codes[cell(report, 0, 1)]));
  CHECK(codes[cell(report, 4, 4)] == code::kNone);

  // A second rail where n0-n1 failed: the cell shows the failure, not rail 0's pass.
  report.rails = 2;
  auto other = measured_pair("n1", "n0", 1, 1.6, 95);
  other.rail = 1;
  other.status = PairStatus::kFailed;
  report.pairs.push_back(other);
  codes = heatmap_codes(report, MatrixFigure::kLatencyUs, scale);
  CHECK(codes[cell(report, 0, 1)] == code::kFailed);
  CHECK(codes[cell(report, 1, 0)] == code::kFailed);
}

TEST_CASE("the pairs list: worst first, capped, counting the rest", "[report]") {
  const auto report = fabric(30);
  const auto all = worst_pairs(report, 1000);
  // 29 slow (n3 with every other node), one failed, one not run.
  CHECK(all.total == 31);
  REQUIRE(all.listed.size() == 31);
  CHECK(all.listed.front()->status == PairStatus::kFailed);
  CHECK(all.listed[1]->status == PairStatus::kSlow);
  CHECK(all.listed.back()->status == PairStatus::kNotRun);
  const auto capped = worst_pairs(report, 5);
  CHECK(capped.total == 31);
  REQUIRE(capped.listed.size() == 5);
  CHECK(capped.listed.front()->status == PairStatus::kFailed);
}

TEST_CASE("node summaries: blamed first, then failed checks, then broken pairs", "[report]") {
  auto report = fabric(10);
  report.node_checks = {sample_check("n7", true), sample_check("n8", false)};
  const auto summaries = node_summaries(report);
  REQUIRE(summaries.size() == 10);
  CHECK(summaries[0].node == "n3");
  CHECK(summaries[0].blamed == std::optional<std::string>("all pairs slow"));
  CHECK(summaries[0].slow == 9);
  CHECK(summaries[0].worst_latency_us == Approx(16));
  CHECK(summaries[1].node == "n7");
  CHECK(summaries[1].check_failed == std::optional<bool>(true));
  CHECK(summaries[2].node == "n1");
  CHECK(summaries[2].broken == 1);
  CHECK(summaries[3].node == "n2");
  CHECK(summaries[4].node == "n5");
  CHECK(summaries[4].not_run == 1);
  for (const auto& summary : summaries) {
    if (summary.node == "n8") CHECK(summary.check_failed == std::optional<bool>(false));
    if (summary.node == "n0") {
      CHECK_FALSE(summary.check_failed.has_value());
      CHECK(summary.pairs == 9);
      CHECK(summary.median_latency_us == Approx(1.6));
      CHECK(summary.worst_bandwidth_gbps == Approx(9.5));
    }
  }
}

TEST_CASE("HTML of a large fabric: a canvas heatmap, a node table, a capped pairs list",
          "[report]") {
  auto report = fabric(300);
  // n3's 299 pairs slow, one failed, one not run: 101 beyond the list.
  const std::string html = render_sweep_html(report);
  CHECK(html.find("<table class=\"heatmap\"") == std::string::npos);
  CHECK(html.find(" title=") == std::string::npos);
  CHECK(html.find("<figure class=\"canvasmap\">") != std::string::npos);
  CHECK_THAT(html, Catch::Contains("<h2>Nodes, worst first</h2>"));
  CHECK_THAT(html,
             Catch::Contains("<tr class=\"status-fail\"><td>n3</td><td>blamed: all pairs slow"));
  CHECK_THAT(html, Catch::Contains("<p>101 more in report.json (301 did not pass).</p>"));
  // The hostile name neither closes the script nor starts markup.
  CHECK(html.find("<img") == std::string::npos);
  CHECK_THAT(html, Catch::Contains("\\u003cimg src=x onerror=alert(1)\\u003e,\\\"lab|4\\\""));
  CHECK(html.size() < 700 * 1024);
}

TEST_CASE("a fabric of up to 64 nodes keeps the table heatmap", "[report]") {
  const std::string html = render_sweep_html(fabric(64));
  CHECK(html.find("<table class=\"heatmap\"") != std::string::npos);
  CHECK(html.find("<canvas") == std::string::npos);
}

TEST_CASE("base64 and script JSON as the page's script reads them", "[report]") {
  const std::vector<std::uint8_t> bytes{'M', 'a', 'n', 0xff, 0, 'x', 'y'};
  CHECK(base64(std::span(bytes).first(3)) == "TWFu");
  CHECK(base64(std::span(bytes).first(4)) == "TWFu/w==");
  CHECK(base64(std::span(bytes).first(5)) == "TWFu/wA=");
  CHECK(base64(bytes) == "TWFu/wB4eQ==");
  CHECK(script_json_string("</script>&\"\\\n") ==
        "\"\\u003c/script\\u003e\\u0026\\\"\\\\\\u000a\"");
  CHECK(script_json_array({"a", "b"}) == "[\"a\",\"b\"]");
}

TEST_CASE("a node whose bad pairs are all with a blamed node is a victim, not tinted as a culprit",
          "[report]") {
  auto report = fabric(8);  // n3 blamed: every pair of it slow; n1-n2 failed; n5-n6 not run
  const auto summaries = node_summaries(report);
  // n3 first; then the nodes with bad pairs of their own (n1, n2: broken; n5, n6: not run);
  // then the victims, whose one bad pair each is with n3.
  std::vector<std::string> order;
  for (const auto& summary : summaries) order.push_back(summary.node);
  CHECK(order == std::vector<std::string>{"n3", "n1", "n2", "n5", "n6", "n0", "n4", kHostileNode});
  for (const auto& summary : summaries) {
    CHECK(only_a_victim(summary) ==
          (summary.node == "n0" || summary.node == "n4" || summary.node == kHostileNode));
  }
  CHECK(summaries[1].with_blamed == 1);  // n1's pair with n3; its failed pair with n2 is its own
  const std::string html = render_sweep_html(report);
  CHECK_THAT(html, Catch::Contains("<tr class=\"status-victim\"><td>n0</td><td>no: every pair of "
                                   "it that did not pass is with a blamed node"));
  CHECK_THAT(html, Catch::Contains("<tr class=\"status-fail\"><td>n1</td>"));
  CHECK_THAT(html, Catch::Contains("<tr class=\"status-fail\"><td>n3</td>"));
  // A victim whose own checks failed is not only a victim.
  report.node_checks = {sample_check("n0", true)};
  for (const auto& summary : node_summaries(report))
    if (summary.node == "n0") CHECK_FALSE(only_a_victim(summary));
}

TEST_CASE("a broken pair ranks a node above one with more pairs not run", "[report]") {
  SweepReport report = sample_sweep();
  report.blamed.clear();
  report.nodes = {"a", "b", "c", "d", "e"};
  report.pairs.clear();
  for (std::size_t i = 0; i < report.nodes.size(); ++i) {
    for (std::size_t j = i + 1; j < report.nodes.size(); ++j) {
      auto pair = measured_pair(report.nodes[i], report.nodes[j], 1, 1.6, 95);
      if (pair.a == "a" && pair.b == "b") pair.status = PairStatus::kFailed;
      if (pair.a == "c" && (pair.b == "d" || pair.b == "e")) pair.status = PairStatus::kNotRun;
      report.pairs.push_back(pair);
    }
  }
  std::vector<std::string> order;
  for (const auto& summary : node_summaries(report)) order.push_back(summary.node);
  CHECK(order == std::vector<std::string>{"a", "b", "c", "d", "e"});
}

TEST_CASE("heatmap legends run low to high and say where the colour stops changing", "[report]") {
  const auto report = fabric(8);  // passing pairs at 1.6 us and 95 Gb/s, n3's at 16 us, 9.5 Gb/s
  const std::string html = render_sweep_html(report);
  // The best latency measured is 1.6 us (the 2 B size); amber from twice that, or the worst.
  CHECK_THAT(html, Catch::Contains("<p class=\"legend\"><span>1.6 us</span><span class=\"ramp "
                                   "down\"></span><span>16 us or more</span>"));
  CHECK_THAT(html, Catch::Contains("<p class=\"legend\"><span>9.5 Gb/s or less</span><span "
                                   "class=\"ramp\"></span><span>95 Gb/s</span>"));
}

}  // namespace ibkit
