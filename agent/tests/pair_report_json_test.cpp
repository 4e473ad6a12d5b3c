#include "schema/pair_report_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/pair_report.hpp"
#include "report/pair_json.hpp"

namespace ibkit {
namespace {

PairReport measured_pair() {
  VerbsMeasurement verbs;
  verbs.test = "bw";
  verbs.op = "write";
  verbs.qps = 2;
  verbs.bidir = true;
  verbs.ack_timeout = 22;
  verbs.local_device = "rxe0 port 1";
  verbs.remote_device = "rxe0 port 1";
  verbs.port_data_gbps = 2.5;
  SizeMeasurement size;
  size.size = 65536;
  size.iterations = 5000;
  size.bytes = 65536ull * 5000;
  size.seconds = 1.25;
  size.bandwidth = Throughput{250.0, 2.097, 0.004};
  verbs.sizes.push_back(size);
  verbs.remote_counter_deltas["port_rcv_errors"] = 3;

  TcpResult tcp;
  tcp.streams = 2;
  tcp.write_size = 131072;
  tcp.bytes = 1000;
  tcp.seconds = 0.5;
  tcp.gbps = 0.000016;
  tcp.per_stream = {{600, 0.5, 0.0000096}, {400, 0.5, 0.0000064}};

  PairReport report;
  report.host = "node1";
  report.peer = "node2";
  report.generated_at = "2026-11-22T08:00:00Z";
  report.config_source = "built-in defaults";
  report.outcomes = {{"bw", verbs, std::nullopt, ""},
                     {"tcp", std::nullopt, tcp, ""},
                     {"lat", std::nullopt, std::nullopt, "no completion for 10 s"}};
  report.results = {{"pair.bandwidth", "node2", Status::kFail, "2.097 Gb/s", ">= 2.2 Gb/s", "x"}};
  return report;
}

TEST_CASE("a pair report reads back as it was written", "[schema][model]") {
  auto written = measured_pair();
  auto read = pair_report_from_json(nlohmann::json::parse(render_pair_json(written)));
  REQUIRE(read.ok());
  CHECK(read->host == "node1");
  CHECK(read->peer == "node2");
  REQUIRE(read->outcomes.size() == 3);
  const auto& verbs = *read->outcomes[0].verbs;
  CHECK(verbs.op == "write");
  CHECK(verbs.qps == 2);
  CHECK(verbs.bidir);
  CHECK(verbs.ack_timeout == 22);
  CHECK(verbs.port_data_gbps == Approx(2.5));
  REQUIRE(verbs.sizes.size() == 1);
  CHECK(verbs.sizes[0].size == 65536);
  CHECK(verbs.sizes[0].bandwidth->gbps == Approx(2.097));
  CHECK_FALSE(verbs.sizes[0].latency.has_value());
  CHECK(verbs.remote_counter_deltas.at("port_rcv_errors") == 3);
  CHECK(read->outcomes[1].tcp->per_stream.size() == 2);
  CHECK(read->outcomes[2].error == "no completion for 10 s");
  REQUIRE(read->results.size() == 1);
  CHECK(read->results[0].status == Status::kFail);
  CHECK(read->results[0].expected == ">= 2.2 Gb/s");
}

TEST_CASE("a damaged pair report names the field", "[schema][model]") {
  auto document = nlohmann::json::parse(render_pair_json(measured_pair()));
  SECTION("a missing field") {
    document["tests"][0]["verbs"]["sizes"][0].erase("bytes");
    auto read = pair_report_from_json(document);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "missing field tests[0].verbs.sizes[0].bytes");
  }
  SECTION("a wrong type") {
    document["results"][0]["status"] = "maybe";
    auto read = pair_report_from_json(document);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "results[0].status \"maybe\" is not pass, warn, fail or skip");
  }
  SECTION("an ACK timeout no QP can have") {
    document["tests"][0]["verbs"]["ack_timeout"] = 32;
    auto read = pair_report_from_json(document);
    REQUIRE_FALSE(read.ok());
    CHECK_THAT(read.error().message, Catch::Contains("tests[0].verbs.ack_timeout"));
  }
  SECTION("a report from before ACK timeouts") {
    document["tests"][0]["verbs"].erase("ack_timeout");
    auto read = pair_report_from_json(document);
    REQUIRE(read.ok());
    CHECK_FALSE(read->outcomes[0].verbs->ack_timeout);
  }
  SECTION("another schema") {
    document["schema"] = "ibkit.check/1";
    auto read = pair_report_from_json(document);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "schema \"ibkit.check/1\" is not ibkit.pair/1");
  }
  SECTION("not an object") {
    auto read = pair_report_from_json(nlohmann::json::array());
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "the document is not an object");
  }
}

}  // namespace
}  // namespace ibkit
