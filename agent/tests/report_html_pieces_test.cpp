// The pieces of the HTML page on their own: the heatmap's colour scale, one rail's table
// heatmap, the canvas heatmaps of a large fabric, and the node table.
#include <catch2/catch.hpp>

#include "report/html/heatmap_scale.hpp"
#include "report/html/html_canvas_heatmap.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/html/html_node_table.hpp"
#include "report/sweep_matrix.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

TEST_CASE("heatmap scale: at least a factor of two, goodness from worst to best, amber to green",
          "[report]") {
  const SweepReport report = test::all_pairs_sweep(4, 1.5, 90);
  const auto latency = heatmap_scale(report, MatrixFigure::kLatencyUs, 0);
  REQUIRE(latency);
  CHECK(latency->best == Approx(1.5));
  CHECK(latency->worst == Approx(3.0));  // twice the best: noise stays green
  CHECK(scale_goodness(1.5, *latency) == Approx(1));
  CHECK(scale_goodness(9, *latency) == Approx(0));
  CHECK(goodness_colour(0) != goodness_colour(1));
  CHECK_THAT(goodness_colour(1), Catch::StartsWith("hsl(130"));
  CHECK_THAT(legend_start(MatrixFigure::kBandwidthGbps, std::nullopt),
             Catch::StartsWith("<p class=\"legend\">"));
  CHECK_FALSE(heatmap_scale(SweepReport{}, MatrixFigure::kLatencyUs, std::nullopt));
}

TEST_CASE("html heatmap and node table: every node on both axes, names escaped", "[report]") {
  const SweepReport report = test::sample_sweep();
  const PairMatrix matrix(report);
  const std::string table = html_heatmap(report, matrix, MatrixFigure::kLatencyUs, 0);
  CHECK_THAT(table, Catch::Contains("<table") && Catch::Contains("lab3"));
  CHECK(table.find(test::kHostileNode) == std::string::npos);  // escaped, never raw markup
  const std::string nodes = html_node_table(report);
  CHECK_THAT(nodes, Catch::Contains("lab1") && Catch::Contains("lab2"));
  CHECK(nodes.find("<img src=x") == std::string::npos);
  CHECK(html_node_table(SweepReport{}).empty());
}

TEST_CASE("canvas heatmaps: one canvas a figure, the page self-contained", "[report]") {
  const SweepReport report = test::all_pairs_sweep(6, 1.5, 90);
  const std::string html = html_canvas_heatmaps(report);
  CHECK_THAT(html, Catch::Contains("<canvas") && Catch::Contains("<script"));
  CHECK(html.find("src=\"http") == std::string::npos);
}
