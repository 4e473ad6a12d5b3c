// The words every rule writes figures and ratios in, and the subjects figures are compared by.
#include <catch2/catch.hpp>

#include "measure/measurement_subject.hpp"
#include "measure/tcp_result.hpp"
#include "measure/verbs_measurement.hpp"
#include "rules/figure_text.hpp"

using namespace ibkit;

TEST_CASE("figure text: a latency with 2 decimals in us, a bandwidth with 3 in Gb/s", "[rules]") {
  CHECK(figure_text(true, 1764.1349) == "1764.13 us");
  CHECK(figure_text(false, 0.0331) == "0.033 Gb/s");
  CHECK(figure_text(false, 90) == "90 Gb/s");
}

TEST_CASE("ratio text: two significant figures below 1, two decimals above", "[rules]") {
  CHECK(ratio_text(3.0172) == "3.02x");
  CHECK(ratio_text(0.33) == "0.33x");
  CHECK(ratio_text(0.0523) == "0.052x");
}

TEST_CASE("measurement subject: the test, its options and size", "[measure]") {
  VerbsMeasurement lat;
  lat.test = "lat";
  lat.op = "send";
  lat.qps = 1;
  CHECK(verbs_subject(lat, 2) == "lat send 2 B");
  VerbsMeasurement bw;
  bw.test = "bw";
  bw.op = "write";
  bw.qps = 2;
  bw.bidir = true;
  CHECK(verbs_subject(bw, 1048576) == "bw write bidir 2 QPs 1048576 B");
  TcpResult tcp;
  tcp.streams = 4;
  tcp.write_size = 131072;
  CHECK(tcp_subject(tcp) == "tcp 4 streams 131072 B");
  tcp.streams = 1;
  tcp.bidir = true;
  CHECK(tcp_subject(tcp) == "tcp 1 stream 131072 B bidir");
}
