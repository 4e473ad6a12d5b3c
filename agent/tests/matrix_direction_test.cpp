#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/sweep_report.hpp"
#include "report/html/sweep_html.hpp"
#include "report/sweep_csv.hpp"
#include "report/sweep_matrix.hpp"
#include "schema/sweep_report_json.hpp"
#include "sweep_rows.hpp"
#include "sweep_sample.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// The CSV's lines; split() keeps the empty field after the last newline.
std::vector<std::string> lines_of(const std::string& text) { return split(text, '\n'); }

VerbsMeasurement& bandwidth_test(SweepPair& pair) {
  for (auto& outcome : pair.report->outcomes) {
    if (outcome.verbs && outcome.verbs->test == "bw") return *outcome.verbs;
  }
  FAIL("the sample pair has no bandwidth test");
  throw;
}

// lab1 and lab2 tested both ways at once: lab1 sent 80 Gb/s to lab2, lab2 only 8 to lab1 (a
// node slow when sending), 88 Gb/s added up.
SweepReport bidirectional_sweep() {
  SweepReport report;
  report.pattern = "all-pairs";
  report.tests = {"lat", "bw"};
  report.nodes = {"lab1", "lab2"};
  report.rounds = 1;
  auto pair = test::measured_pair("lab1", "lab2", 1, 1.5, 88);
  auto& bw = bandwidth_test(pair);
  bw.bidir = true;
  bw.sizes.back().to_peer = Throughput{0, 80, 0};
  bw.sizes.back().from_peer = Throughput{0, 8, 0};
  report.pairs.push_back(pair);
  return report;
}

}  // namespace

TEST_CASE("matrices: bandwidth measured each way is directed, the row sends to the column",
          "[report][schema]") {
  const auto report = bidirectional_sweep();
  const auto bandwidth = lines_of(render_sweep_csv(report, "bandwidth_gbps"));
  REQUIRE(bandwidth.size() == 4);
  CHECK(bandwidth[1] == "lab1,,80");
  CHECK(bandwidth[2] == "lab2,8,");
  // A round trip has no direction: latency fills both cells alike.
  const auto latency = lines_of(render_sweep_csv(report, "latency_us"));
  CHECK(latency[1] == "lab1,,1.5");
  CHECK(latency[2] == "lab2,1.5,");

  const std::string html = render_sweep_html(report);
  const auto heatmaps = html.substr(html.find("<table class=\"heatmap\""));
  CHECK_THAT(heatmaps, Catch::Contains(">80</td>"));
  CHECK_THAT(heatmaps, Catch::Contains(">8</td>"));
  CHECK(heatmaps.find(">88</td>") == std::string::npos);
  CHECK_THAT(html, Catch::Contains("row sends, column receives"));
}

TEST_CASE("matrices: a one-way test keeps the way its data went and fills both cells",
          "[report][schema]") {
  auto report = bidirectional_sweep();
  auto& bw = bandwidth_test(report.pairs[0]);
  bw.bidir = false;
  bw.sizes.back().to_peer.reset();
  bw.sizes.back().from_peer.reset();
  CHECK(pair_figures(report.pairs[0]).a_to_b_gbps == 88);
  CHECK_FALSE(pair_figures(report.pairs[0]).b_to_a_gbps);
  bw.op = "read";
  CHECK_FALSE(pair_figures(report.pairs[0]).a_to_b_gbps);
  CHECK(pair_figures(report.pairs[0]).b_to_a_gbps == 88);
  // Half a row of empty cells would leave a slow pair marked in one cell only.
  report.pairs[0].status = PairStatus::kSlow;
  CHECK(lines_of(render_sweep_csv(report, "bandwidth_gbps"))[1] == "lab1,,88");
  CHECK(lines_of(render_sweep_csv(report, "bandwidth_gbps"))[2] == "lab2,88,");
  CHECK(render_sweep_html(report).find("row sends") == std::string::npos);
  // A figure with no direction (an older report's row) fills both cells, as before.
  SweepPair read = report.pairs[0];
  read.report.reset();
  read.figures = PairFigures{1.5, 88, std::nullopt, std::nullopt};
  CHECK(cell_figure(read, MatrixFigure::kBandwidthGbps, "lab1") == 88);
  CHECK(cell_figure(read, MatrixFigure::kBandwidthGbps, "lab2") == 88);
}

TEST_CASE("sweep JSON keeps each way's bandwidth, and reads a report written before it",
          "[report][schema]") {
  const auto report = bidirectional_sweep();
  auto document = nlohmann::json::parse(render_sweep_json(report));
  CHECK(test::row_value(document, 0, "bandwidth_a_to_b_gbps") == 80);
  CHECK(test::row_value(document, 0, "bandwidth_b_to_a_gbps") == 8);
  // Read without its details, as `ibkit report` reads a passing pair: the row alone holds them.
  document["details"] = nlohmann::json::array();
  auto read = sweep_report_from_json(document);
  REQUIRE(read.ok());
  CHECK(lines_of(render_sweep_csv(*read, "bandwidth_gbps"))[2] == "lab2,8,");

  read = sweep_report_from_json(test::as_sweep_v2(document, false));
  REQUIRE(read.ok());
  CHECK_FALSE(read->pairs[0].figures.a_to_b_gbps);
  CHECK(lines_of(render_sweep_csv(*read, "bandwidth_gbps"))[2] == "lab2,88,");
}

TEST_CASE(
    "matrices: a cell holds the pair its row drove, else the one driven the other way, "
    "in one vector or hashed",
    "[report]") {
  // 3 nodes fit one vector; 2,100 are past its 4M cells and hashed. Either way lab0 drove lab1
  // twice (the last counts), lab2 drove lab0, and lab1 and lab2 were never paired.
  for (const int nodes : {3, 2100}) {
    INFO(nodes << " nodes");
    SweepReport report;
    report.rails = 1;
    for (int i = 0; i < nodes; ++i) report.nodes.push_back("lab" + std::to_string(i));
    for (const auto& [a, b] : {std::pair{"lab0", "lab1"}, {"lab0", "lab1"}, {"lab2", "lab0"}}) {
      SweepPair pair;
      pair.a = a;
      pair.b = b;
      report.pairs.push_back(pair);
    }
    const PairMatrix matrix(report);
    CHECK(matrix.at(0, 1, 0) == &report.pairs[1]);
    CHECK(matrix.at(1, 0, 0) == &report.pairs[1]);
    CHECK(matrix.at(2, 0, 0) == &report.pairs[2]);
    CHECK(matrix.at(0, 2, 0) == &report.pairs[2]);
    CHECK(matrix.at(1, 2, 0) == nullptr);
    CHECK(matrix.at("lab2", "lab0", 0) == &report.pairs[2]);
    CHECK(matrix.at("lab2", "nobody", 0) == nullptr);
    CHECK(matrix.at(0, 1, 1) == nullptr);  // no second rail
  }
}

}  // namespace ibkit
