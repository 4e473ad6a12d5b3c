// Each way of a bidirectional bandwidth test judged on its own: a node that sends (or receives)
// slowly, a link slow one way, and noise alone, on synthetic sweeps; each way held to the
// pair thresholds; each way kept through the pair report's JSON.
#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "measure/verbs_measurement.hpp"
#include "pair/pair_verdict.hpp"
#include "report/pair_json.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "schema/pair_report_json.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

constexpr double kGbps = 40;  // each way of a healthy pair

std::string node_name(int i) { return "n" + std::to_string(i); }

// All pairs of n nodes, bidirectional, each way at kGbps times a factor drawn from 1 +- spread,
// then `way(a, b)` more: the factor the a -> b direction is slowed by (1: healthy).
template <class Way>
SweepReport bidirectional_fleet(int n, std::mt19937& random, double spread, Way way) {
  std::uniform_real_distribution<double> noise(1 - spread, 1 + spread);
  SweepReport report = test::all_pairs_sweep(n, 1.5, 2 * kGbps);
  for (auto& pair : report.pairs) {
    test::set_each_way(pair, kGbps * noise(random) / way(pair.a, pair.b),
                       kGbps * noise(random) / way(pair.b, pair.a));
  }
  judge_fleet(report, FleetFactors{});
  blame_nodes(report);
  return report;
}

}  // namespace

TEST_CASE("fleet each way: a node that sends slowly is blamed, the reason naming its direction",
          "[rules]") {
  const int n = GENERATE(3, 4, 16);
  std::mt19937 random(2311 + static_cast<unsigned>(n));
  for (int trial = 0; trial < 20; ++trial) {
    const std::string bad = node_name(static_cast<int>(random() % static_cast<unsigned>(n)));
    // Sending at a tenth; +-40% noise on every figure. Its pairs' sums are 0.55x a healthy one's,
    // inside the rule's 0.33x: only each way on its own finds it.
    const auto report = bidirectional_fleet(
        n, random, 0.4,
        [&](const std::string& a, const std::string&) { return a == bad ? 10 : 1; });
    INFO(n << " nodes, trial " << trial << ", bad " << bad << "\n"
           << test::pairs_not_passed(report));
    REQUIRE(report.blamed.size() == 1);
    CHECK(report.blamed[0].node == bad);
    CHECK_THAT(report.blamed[0].reason,
               Catch::Contains(" slow, every way found short is one " + bad + " sends): "));
    for (const auto& pair : report.pairs) {
      const bool mine = pair.a == bad || pair.b == bad;
      CHECK(pair.status == (mine ? PairStatus::kSlow : PairStatus::kPass));
      if (!mine) continue;
      const std::string peer = pair.a == bad ? pair.b : pair.a;
      CHECK_THAT(pair.reason, Catch::Contains("bw write bidir 1048576 B each way " + bad + " -> " +
                                              peer + ": "));
      CHECK_THAT(pair.reason, !Catch::Contains(peer + " -> " + bad));
    }
  }
}

TEST_CASE("fleet each way: a node that receives slowly is blamed too", "[rules]") {
  std::mt19937 random(7);
  const auto report = bidirectional_fleet(
      4, random, 0, [](const std::string&, const std::string& b) { return b == "n1" ? 5 : 1; });
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n1");
  CHECK_THAT(report.blamed[0].reason,
             Catch::StartsWith("every pair failed or was slow (3 slow, every way found short is "
                               "one n1 receives): "));
  CHECK_THAT(report.blamed[0].reason, Catch::Contains(" -> n1: 8 Gb/s is 0.2x the fleet's typical "
                                                      "40 Gb/s"));
}

TEST_CASE("fleet each way: a capped sender is named even where its peer's way dips too",
          "[rules]") {
  // The lab's token bucket on n1's egress: n1 sends at a fifth, and its acknowledgements wait
  // in the same queue, so what n2 sends it arrives at 0.28x (below the rule's 0.33x) as well.
  std::mt19937 random(3);
  const auto report =
      bidirectional_fleet(4, random, 0, [](const std::string& a, const std::string& b) {
        if (a == "n1") return 5.0;
        return a == "n2" && b == "n1" ? 3.5 : 1.0;
      });
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n1");
  CHECK_THAT(report.blamed[0].reason,
             Catch::StartsWith("every pair failed or was slow (3 slow, every slow pair is short "
                               "where n1 sends (3 of 3), the other way in 1): "));
}

TEST_CASE("fleet each way: no direction is named when neither is short in every slow pair",
          "[rules]") {
  // n1 sends slowly to n2 and n3, and receives slowly from n0 alone.
  std::mt19937 random(3);
  const auto report =
      bidirectional_fleet(4, random, 0, [](const std::string& a, const std::string& b) {
        if (a == "n1" && b != "n0") return 5.0;
        return a == "n0" && b == "n1" ? 5.0 : 1.0;
      });
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK_THAT(report.blamed[0].reason,
             Catch::StartsWith("every pair failed or was slow (3 slow): "));
}

TEST_CASE("fleet each way: a node slow both ways is blamed without a direction", "[rules]") {
  std::mt19937 random(5);
  const auto report = bidirectional_fleet(
      4, random, 0.1,
      [](const std::string& a, const std::string& b) { return a == "n2" || b == "n2" ? 5 : 1; });
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n2");
  CHECK_THAT(report.blamed[0].reason,
             Catch::StartsWith("every pair failed or was slow (3 slow): "));
}

TEST_CASE("fleet each way: a link slow one way is slow, and nobody is blamed", "[rules]") {
  std::mt19937 random(11);
  const auto report = bidirectional_fleet(
      4, random, 0.2,
      [](const std::string& a, const std::string& b) { return a == "n2" && b == "n3" ? 5 : 1; });
  INFO(test::pairs_not_passed(report));
  CHECK(report.blamed.empty());
  for (const auto& pair : report.pairs) {
    const bool bad = (pair.a == "n2" && pair.b == "n3") || (pair.a == "n3" && pair.b == "n2");
    CHECK(pair.status == (bad ? PairStatus::kSlow : PairStatus::kPass));
    if (bad) CHECK_THAT(pair.reason, Catch::Contains("each way n2 -> n3: "));
  }
}

TEST_CASE("fleet each way: 300 healthy sweeps with +-40% noise flag nothing", "[rules]") {
  const int n = GENERATE(3, 4, 16);
  std::mt19937 random(99 + static_cast<unsigned>(n));
  for (int trial = 0; trial < 300; ++trial) {
    const auto report = bidirectional_fleet(
        n, random, 0.4, [](const std::string&, const std::string&) { return 1; });
    INFO(n << " nodes, trial " << trial << "\n" << test::pairs_not_passed(report));
    REQUIRE(test::pairs_not_passed(report).empty());
    CHECK(report.blamed.empty());
  }
}

TEST_CASE("fleet each way: both ways are one reference, and a pair without them keeps its sum",
          "[rules]") {
  std::mt19937 random(3);
  auto report =
      bidirectional_fleet(3, random, 0, [](const std::string&, const std::string&) { return 1; });
  const auto figures = fleet_figures(report.pairs[0]);
  REQUIRE(figures.size() == 4);  // the latency and its tail, then each way
  CHECK(figures[2].subject == "bw write bidir 1048576 B each way");
  CHECK(figures[2].direction == report.pairs[0].a + " -> " + report.pairs[0].b);
  CHECK(figures[3].direction == report.pairs[0].b + " -> " + report.pairs[0].a);
  REQUIRE(report.fleet);
  CHECK(report.fleet->references.size() == 3);
  report.pairs[0].report->outcomes[1].verbs->sizes[1].to_peer.reset();
  const auto summed = fleet_figures(report.pairs[0]);
  REQUIRE(summed.size() == 3);
  CHECK(summed[2].subject == "bw write bidir 1048576 B");
  CHECK(summed[2].value == Approx(2 * kGbps));
  CHECK(summed[2].direction.empty());
}

TEST_CASE("pair.bandwidth holds each way of a bidirectional test to the threshold",
          "[pair][measure]") {
  VerbsMeasurement verbs;
  verbs.test = "bw";
  verbs.op = "write";
  verbs.bidir = true;
  SizeMeasurement size;
  size.size = 65536;
  size.bytes = 300000000;  // this end sent 2.4 Gb in 1 s
  size.iterations = 4578;
  size.seconds = 1;
  finish_bandwidth_size(size, DirectionSent{37500000, 572, 1.5});  // the other end 0.2 Gb/s
  CHECK(size.to_peer->gbps == Approx(2.4));
  CHECK(size.from_peer->gbps == Approx(0.2));
  CHECK(size.bandwidth->gbps == Approx((300000000.0 + 37500000.0) * 8 / 1.5 / 1e9));
  CHECK(size.iterations == 4578 + 572);
  verbs.sizes = {size};
  Thresholds thresholds;
  thresholds.min_bandwidth_gbps = 1.0;
  const auto results = judge_pair({{"bw", verbs, std::nullopt, ""}}, thresholds, {"lab1", "lab3"});
  const CheckResult& bandwidth = results[0];
  REQUIRE(bandwidth.id == "pair.bandwidth");
  CHECK(bandwidth.status == Status::kFail);  // the sum, 1.8 Gb/s, would pass
  CHECK(bandwidth.observed == "1.8 Gb/s (lab1 -> lab3 2.4, lab3 -> lab1 0.2)");
  CHECK(bandwidth.expected == ">= 1 Gb/s each way");
  CHECK_THAT(bandwidth.hint, Catch::StartsWith("the lab3 -> lab1 direction is below"));
}

TEST_CASE("each way of a bidirectional size survives the pair report's JSON", "[schema]") {
  auto pair = test::measured_pair("lab1", "lab3", 1, 1.5, 80);
  test::set_each_way(pair, 30, 50);
  auto read = pair_report_from_json(nlohmann::json::parse(render_pair_json(*pair.report)));
  REQUIRE(read.ok());
  const auto& size = read->outcomes[1].verbs->sizes[1];
  REQUIRE(size.to_peer);
  REQUIRE(size.from_peer);
  CHECK(size.to_peer->gbps == Approx(30));
  CHECK(size.from_peer->gbps == Approx(50));
  CHECK_FALSE(read->outcomes[1].verbs->sizes[0].to_peer);
}

namespace {

// A bidirectional TCP test of 4 streams in place of the pair's bandwidth test, each way at
// these figures (or without them, a report from before each way was kept).
void set_tcp_ways(SweepPair& pair, std::optional<double> a_to_b, std::optional<double> b_to_a) {
  TcpResult tcp;
  tcp.streams = 4;
  tcp.write_size = 131072;
  tcp.bidir = true;
  tcp.gbps = a_to_b.value_or(kGbps) + b_to_a.value_or(kGbps);
  tcp.gbps_to_peer = a_to_b;
  tcp.gbps_from_peer = b_to_a;
  pair.report->outcomes[1] = {"tcp", std::nullopt, tcp, ""};
  pair.status = PairStatus::kPass;
  pair.rules = {};
  pair.reason.clear();
}

}  // namespace

TEST_CASE("fleet each way: over TCP too, a node that sends slowly is blamed, naming the way",
          "[rules]") {
  SweepReport report = test::all_pairs_sweep(4, 1.5, 2 * kGbps);
  auto rate = [](const std::string& from) { return from == "n1" ? kGbps / 5 : kGbps; };
  for (auto& pair : report.pairs) set_tcp_ways(pair, rate(pair.a), rate(pair.b));
  judge_fleet(report, FleetFactors{});
  blame_nodes(report);
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n1");
  CHECK_THAT(report.blamed[0].reason, Catch::Contains("every way found short is one n1 sends"));
  for (const auto& pair : report.pairs) {
    if (pair.a != "n1" && pair.b != "n1") continue;
    const std::string peer = pair.a == "n1" ? pair.b : pair.a;
    CHECK_THAT(pair.reason,
               Catch::Contains("tcp 4 streams 131072 B bidir each way n1 -> " + peer + ": 8 Gb/s"));
  }
}

TEST_CASE("fleet each way: TCP without each way (an older report) is judged on its sum",
          "[rules]") {
  SweepReport report = test::all_pairs_sweep(4, 1.5, 2 * kGbps);
  for (auto& pair : report.pairs) set_tcp_ways(pair, std::nullopt, std::nullopt);
  const auto figures = fleet_figures(report.pairs[0]);
  REQUIRE(figures.size() == 3);  // the latency and its tail, then the sum
  CHECK(figures[2].subject == "tcp 4 streams 131072 B bidir");
  CHECK(figures[2].value == Approx(2 * kGbps));
  CHECK(figures[2].direction.empty());
  // The matrices: no way known, so no directed cell.
  CHECK_FALSE(pair_figures(report.pairs[0]).a_to_b_gbps);
  set_tcp_ways(report.pairs[0], 30, 10);
  const PairFigures ways = pair_figures(report.pairs[0]);
  CHECK(ways.a_to_b_gbps == Approx(30));
  CHECK(ways.b_to_a_gbps == Approx(10));
  // One way: what the client, the pair's first node, sent.
  report.pairs[0].report->outcomes[1].tcp->bidir = false;
  report.pairs[0].report->outcomes[1].tcp->gbps = 25;
  const PairFigures one_way = pair_figures(report.pairs[0]);
  CHECK(one_way.a_to_b_gbps == Approx(25));
  CHECK_FALSE(one_way.b_to_a_gbps);
}

TEST_CASE("pair.tcp holds each way of a bidirectional test to min_tcp_gbps", "[pair]") {
  TcpResult tcp;
  tcp.streams = 2;
  tcp.bidir = true;
  tcp.gbps = 12;
  tcp.gbps_to_peer = 9;
  tcp.gbps_from_peer = 3;
  Thresholds thresholds;
  thresholds.min_tcp_gbps = 5;
  auto results = judge_pair({{"tcp", std::nullopt, tcp, ""}}, thresholds, {"lab1", "lab3"});
  REQUIRE(results.size() == 1);
  CHECK(results[0].status == Status::kFail);  // the sum, 12 Gb/s, would pass
  CHECK(results[0].observed == "12 Gb/s (lab1 -> lab3 9, lab3 -> lab1 3)");
  CHECK(results[0].expected == ">= 5 Gb/s each way");
  CHECK_THAT(results[0].hint, Catch::StartsWith("the lab3 -> lab1 direction is below"));
  tcp.gbps_from_peer = 6;
  results = judge_pair({{"tcp", std::nullopt, tcp, ""}}, thresholds, {"lab1", "lab3"});
  CHECK(results[0].status == Status::kPass);
}

TEST_CASE("TCP each way survives the pair report's JSON, and an older report reads without it",
          "[schema]") {
  auto pair = test::measured_pair("lab1", "lab3", 1, 1.5, 80);
  set_tcp_ways(pair, 30, 50);
  auto json = nlohmann::json::parse(render_pair_json(*pair.report));
  auto read = pair_report_from_json(json);
  REQUIRE(read.ok());
  const auto& tcp = *read->outcomes[1].tcp;
  CHECK(tcp.gbps_to_peer == Approx(30));
  CHECK(tcp.gbps_from_peer == Approx(50));
  auto& written = json["tests"][1]["tcp"];
  REQUIRE(written.contains("gbps_to_peer"));
  written.erase("gbps_to_peer");
  written["gbps_from_peer"] = nullptr;
  auto older = pair_report_from_json(json);
  REQUIRE(older.ok());
  CHECK_FALSE(older->outcomes[1].tcp->gbps_to_peer);
  CHECK_FALSE(older->outcomes[1].tcp->gbps_from_peer);
  written["gbps_to_peer"] = "fast";
  CHECK_FALSE(pair_report_from_json(json).ok());
}
