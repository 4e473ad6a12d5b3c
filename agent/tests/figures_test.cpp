#include "measure/figures.hpp"

#include <catch2/catch.hpp>

TEST_CASE("latency figures: median as typical, nearest-rank percentiles", "[measure]") {
  std::vector<double> samples;
  for (int i = 1000; i >= 1; --i) samples.push_back(i);
  auto stats = ibkit::latency_stats(samples);
  CHECK(stats.min_us == 1);
  CHECK(stats.max_us == 1000);
  CHECK(stats.typical_us == 500.5);
  CHECK(stats.avg_us == 500.5);
  CHECK(stats.p99_us == 990);
  CHECK(stats.p999_us == 999);
  CHECK(stats.stdev_us == Approx(288.675).epsilon(0.001));
}

TEST_CASE("latency figures of one sample and of none", "[measure]") {
  auto one = ibkit::latency_stats({3.5});
  CHECK(one.min_us == 3.5);
  CHECK(one.typical_us == 3.5);
  CHECK(one.p999_us == 3.5);
  auto none = ibkit::latency_stats({});
  CHECK(none.max_us == 0);
}

TEST_CASE("throughput in MiB/s, Gb/s (10^9 bits) and Mpps", "[measure]") {
  auto figures = ibkit::throughput(1024ull * 1024 * 1024, 16384, 2.0);
  CHECK(figures.mib_per_s == Approx(512));
  CHECK(figures.gbps == Approx(4.294967296));
  CHECK(figures.mpps == Approx(0.008192));
  CHECK(ibkit::throughput(100, 1, 0).gbps == 0);
}
