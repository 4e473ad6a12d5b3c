// The pairs of ibkit.sweep/2 written and read back (schema/sweep_pairs_json.hpp), and one pair's
// outcome fields refused when out of range (schema/sweep_pair_fields.hpp).
#include <tuple>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "schema/json_object_writer.hpp"
#include "schema/sweep_pair_fields.hpp"
#include "schema/sweep_pairs_json.hpp"
#include "sweep_sample.hpp"
#include "util/json_fields.hpp"

using namespace ibkit;

TEST_CASE("sweep pairs: written and read back with statuses, reasons and details", "[schema]") {
  const SweepReport report = test::sample_sweep();
  std::string text;
  JsonObjectWriter writer(&text);
  write_sweep_pairs(report, writer);
  writer.close();
  const auto document = nlohmann::json::parse(text);
  CHECK(document.contains("pair_columns"));
  CHECK(document.at("pairs").size() == report.pairs.size());

  SweepReport read;
  read.nodes = report.nodes;
  read.rails = report.rails;
  read.rounds = report.rounds;
  JsonFields fields(document, "");
  read_sweep_pairs(fields, &read);
  INFO(fields.error());
  REQUIRE_FALSE(fields.failed());
  REQUIRE(read.pairs.size() == report.pairs.size());
  for (std::size_t i = 0; i < read.pairs.size(); ++i) {
    CHECK(read.pairs[i].status == report.pairs[i].status);
    CHECK(read.pairs[i].reason == report.pairs[i].reason);
  }
}

TEST_CASE("sweep pairs: each row is the JSON its values dump to, figures rounded", "[schema]") {
  // The rows are written by hand; every value must read as the JSON library writes it.
  SweepReport report;
  report.nodes = {"n0", "n1"};
  report.rails = 1;
  report.rounds = 1;
  for (const auto& [seconds, latency, bandwidth] :
       {std::tuple{2.0, 0.0004, 1e13}, {0.0015, 1234567.8915, 95.112}, {1e12, 1.0 / 3, 0.001}}) {
    SweepPair pair;
    pair.a = "n0";
    pair.b = "n1";
    pair.round = 1;
    pair.status = PairStatus::kPass;
    pair.seconds = seconds;
    pair.figures.latency_us = latency;
    pair.figures.bandwidth_gbps = bandwidth;
    pair.rules.recorded = true;
    pair.rules.fleet = true;
    report.pairs.push_back(pair);
  }
  report.pairs.back().a = "elsewhere";  // a node the report does not list: null
  std::string text;
  JsonObjectWriter writer(&text);
  write_sweep_pairs(report, writer);
  writer.close();
  const auto rows = nlohmann::ordered_json::parse(text).at("pairs");
  REQUIRE(rows.size() == 3);
  for (const auto& row : rows) {
    const std::string dumped = row.dump();
    INFO(dumped);
    CHECK(text.find(dumped) != std::string::npos);
  }
  CHECK(rows[0].dump() == R"([0,1,0,1,"pass",0,"fleet",0,2.0,0.0,10000000000000.0,null,null])");
  CHECK(rows[1].dump() == R"([0,1,0,1,"pass",0,"fleet",0,0.002,1234567.892,95.112,null,null])");
  CHECK(rows[2].dump() ==
        R"([null,1,0,1,"pass",0,"fleet",0,1000000000000.0,0.333,0.001,null,null])");
}

TEST_CASE("sweep pair fields: a round past the sweep's is refused, naming the field", "[schema]") {
  const auto object = nlohmann::json::parse(
      R"({"rail": 0, "round": 9, "status": "pass", "rule": "fleet", "attempts": 1, "seconds": 2})");
  JsonFields fields(object, "pairs[0]");
  SweepPair pair;
  read_pair_outcome(fields, 1, 3, &pair);
  REQUIRE(fields.failed());
  CHECK_THAT(fields.error(), Catch::Contains("round"));
  auto good = object;
  good["round"] = 2;
  JsonFields good_fields(good, "pairs[0]");
  read_pair_outcome(good_fields, 1, 3, &pair);
  CHECK_FALSE(good_fields.failed());
  CHECK(pair.round == 2);
  CHECK(pair.status == PairStatus::kPass);
}
