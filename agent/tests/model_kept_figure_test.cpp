// A figure as a report keeps it (model/kept_figure.hpp): report.json's rows and the matrices.
#include <cmath>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include "model/kept_figure.hpp"

using ibkit::kept_figure;

TEST_CASE("kept figures: four significant digits, from a thousandth to a unit", "[model]") {
  CHECK(kept_figure(1.58249) == 1.582);
  CHECK(kept_figure(0.51249) == 0.512);  // a thousandth at most, however small
  CHECK(kept_figure(15.28492) == 15.28);
  CHECK(kept_figure(95.11249) == 95.11);
  CHECK(kept_figure(392.4567) == 392.5);
  CHECK(kept_figure(12345.6) == 12346);  // a unit at least, however large
  CHECK(kept_figure(9.9996) == 10);
  CHECK(kept_figure(-95.11249) == -95.11);
  CHECK(kept_figure(0) == 0);
  // A corrupt report's figure is passed on for the reader to refuse, not rounded into range.
  CHECK(kept_figure(1e13) == 1e13);
  CHECK(std::isinf(kept_figure(std::numeric_limits<double>::infinity())));
}

TEST_CASE("kept figures: rounding a kept figure again changes nothing", "[model]") {
  // A report read and written again must be the same file.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-4, 7);
  for (int i = 0; i < 100000; ++i) {
    const double once = kept_figure(std::pow(10.0, exponent(random)));
    INFO(once);
    REQUIRE(kept_figure(once) == once);
  }
}
