#include "sysfs/link_rate.hpp"

#include <catch2/catch.hpp>

using ibkit::parse_link_rate;

TEST_CASE("data rate follows width x speed with the lane encoding", "[sysfs]") {
  struct Case {
    const char* text;
    int width;
    const char* speed;
    double data;
  };
  const Case cases[] = {
      {"10 Gb/sec (4X SDR)", 4, "SDR", 8.0},    {"20 Gb/sec (4X DDR)", 4, "DDR", 16.0},
      {"40 Gb/sec (4X QDR)", 4, "QDR", 32.0},   {"40 Gb/sec (4X FDR10)", 4, "FDR10", 40.0},
      {"56 Gb/sec (4X FDR)", 4, "FDR", 54.545}, {"100 Gb/sec (4X EDR)", 4, "EDR", 100.0},
      {"200 Gb/sec (4X HDR)", 4, "HDR", 200.0}, {"100 Gb/sec (2X HDR)", 2, "HDR", 100.0},
      {"400 Gb/sec (4X NDR)", 4, "NDR", 400.0}, {"2.5 Gb/sec (1X SDR)", 1, "SDR", 2.0},
      {"10 Gb/sec (4X)", 4, "SDR", 8.0},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto rate = parse_link_rate(c.text, false);
    REQUIRE(rate);
    CHECK(rate->width == c.width);
    CHECK(rate->speed == c.speed);
    CHECK(rate->data_gbps == Approx(c.data).epsilon(0.001));
  }
}

TEST_CASE("FDR's 56 Gb/sec carries 54.5 Gb/s, not 56", "[sysfs]") {
  auto rate = parse_link_rate("56 Gb/sec (4X FDR)", false);
  REQUIRE(rate);
  CHECK(rate->nominal_gbps == 56.0);
  CHECK(rate->data_gbps < 54.6);
  CHECK(rate->data_gbps > 54.5);
}

TEST_CASE("on Ethernet (RoCE) the nominal rate is the data rate", "[sysfs]") {
  auto rate = parse_link_rate("40 Gb/sec (4X QDR)", true);
  REQUIRE(rate);
  CHECK(rate->data_gbps == 40.0);
}

TEST_CASE("garbage rate strings are refused, not guessed", "[sysfs]") {
  CHECK_FALSE(parse_link_rate("", false));
  CHECK_FALSE(parse_link_rate("fast", false));
  CHECK_FALSE(parse_link_rate("Gb/sec (4X QDR)", false));
  auto odd = parse_link_rate("40 Gb/sec (banana)", false);
  REQUIRE(odd);
  CHECK(odd->width == 0);
  CHECK(odd->data_gbps == 40.0);
}

TEST_CASE("PCIe bandwidth after encoding", "[sysfs]") {
  CHECK(*ibkit::pcie_data_gbps("2.5 GT/s PCIe", 8) == Approx(16.0));
  CHECK(*ibkit::pcie_data_gbps("8.0 GT/s PCIe", 16) == Approx(126.03).epsilon(0.001));
  CHECK(*ibkit::pcie_data_gbps("8 GT/s", 8) == Approx(63.02).epsilon(0.001));
  CHECK_FALSE(ibkit::pcie_data_gbps("Unknown", 16));
  CHECK_FALSE(ibkit::pcie_data_gbps("8.0 GT/s PCIe", 0));
}
