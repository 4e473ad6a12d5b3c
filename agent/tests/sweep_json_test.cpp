#include "report/sweep_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/check_report_json.hpp"
#include "model/sweep_report.hpp"
#include "report/check_json.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

using test::kHostileNode;
using test::sample_check;
using test::sample_sweep;

SweepReport merged_sample() {
  auto report = sample_sweep();
  report.node_checks = {sample_check("lab1", false), sample_check("lab2", true)};
  return report;
}

std::string read_error(const nlohmann::json& document) {
  auto read = sweep_report_from_json(document);
  REQUIRE_FALSE(read.ok());
  return read.error().message;
}

}  // namespace

TEST_CASE("sweep JSON carries the verdict, every pair with every size, blame and checks") {
  auto json = nlohmann::json::parse(render_sweep_json(merged_sample()));
  CHECK(json["schema"] == "ibkit.sweep/1");
  CHECK(json["verdict"] == "fail");
  CHECK(json["nodes"][3] == kHostileNode);
  CHECK(json["rounds"] == 3);
  CHECK(json["wall_seconds"] == Approx(9.5));
  CHECK(json["counts"]["pass"] == 1);
  CHECK(json["counts"]["failed"] == 1);
  CHECK(json["counts"]["not_run"] == 1);
  REQUIRE(json["pairs"].size() == 6);
  const auto& first = json["pairs"][0];
  CHECK(first["status"] == "pass");
  CHECK(first["latency_us"] == Approx(1.5));
  CHECK(first["bandwidth_gbps"] == Approx(90));
  CHECK(first["report"]["schema"] == "ibkit.pair/1");
  CHECK(first["report"]["tests"][0]["verbs"]["sizes"].size() == 2);
  CHECK(first["report"]["tests"][1]["verbs"]["sizes"][1]["bytes"] == 1 << 20);
  CHECK(json["pairs"][3]["status"] == "unreachable");
  CHECK(json["pairs"][3]["latency_us"].is_null());
  CHECK_FALSE(json["pairs"][3].contains("report"));
  CHECK(json["blamed"][0]["node"] == kHostileNode);
  CHECK(json["node_checks"][1]["verdict"] == "fail");
}

TEST_CASE("a sweep with every pair passing and no failed check passes") {
  SweepReport report = sample_sweep();
  report.pairs.resize(1);
  report.blamed.clear();
  report.node_checks = {sample_check("lab1", false)};
  CHECK(nlohmann::json::parse(render_sweep_json(report))["verdict"] == "pass");
  report.node_checks.push_back(sample_check("lab2", true));
  CHECK(nlohmann::json::parse(render_sweep_json(report))["verdict"] == "fail");
}

TEST_CASE("a sweep report reads back as it was written") {
  const auto written = merged_sample();
  const std::string json = render_sweep_json(written);
  auto read = sweep_report_from_json(nlohmann::json::parse(json));
  REQUIRE(read.ok());
  CHECK(render_sweep_json(*read) == json);
  CHECK(read->nodes == written.nodes);
  CHECK(read->tests == written.tests);
  CHECK(read->pattern == "all-pairs");
  REQUIRE(read->pairs.size() == 6);
  CHECK(read->pairs[1].status == PairStatus::kFailed);
  CHECK(read->pairs[1].attempts == 2);
  CHECK(read->pairs[1].reason == written.pairs[1].reason);
  CHECK(read->pairs[4].status == PairStatus::kTimedOut);
  CHECK_FALSE(read->pairs[4].report.has_value());
  REQUIRE(read->pairs[0].report.has_value());
  CHECK(read->pairs[0].report->outcomes[0].verbs->sizes[1].latency->typical_us == Approx(1.5));
  REQUIRE(read->node_checks.size() == 2);
  CHECK(read->node_checks[1].results[1].status == Status::kFail);
  CHECK(read->blamed[0].reason == written.blamed[0].reason);
}

TEST_CASE("reading a sweep report names the field that is missing or wrong") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));

  auto document = good;
  document["schema"] = "ibkit.sweep/2";
  CHECK_THAT(read_error(document), Catch::Contains("\"ibkit.sweep/2\" is not ibkit.sweep/1"));

  document = good;
  document["pairs"][2].erase("status");
  CHECK(read_error(document) == "missing field pairs[2].status");

  document = good;
  document["pairs"][2]["status"] = "broken";
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[2].status \"broken\" is not"));

  document = good;
  document["rails"] = "one";
  CHECK(read_error(document) == "field rails is not an integer");

  document = good;
  document["rails"] = 2000000000;
  CHECK(read_error(document) == "field rails 2000000000 is not 1..64");

  document = good;
  document["rails"] = 0;
  CHECK(read_error(document) == "field rails 0 is not 1..64");

  document = good;
  document["pairs"][1]["rail"] = good["rails"].get<int>();
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[1].rail "));

  document = good;
  document["pairs"][1]["rail"] = -1;
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[1].rail -1 is not 0.."));

  document = good;
  document["nodes"][1] = 7;
  CHECK(read_error(document) == "field nodes[1] is not a string");

  document = good;
  document["blamed"][0].erase("reason");
  CHECK(read_error(document) == "missing field blamed[0].reason");

  document = good;
  document["pairs"][0]["report"]["tests"][0]["verbs"]["sizes"][0].erase("bytes");
  CHECK(read_error(document) == "pairs[0].report: missing field tests[0].verbs.sizes[0].bytes");

  document = good;
  document["node_checks"][1]["results"][0]["status"] = "great";
  CHECK_THAT(read_error(document), Catch::StartsWith("node_checks[1]: results[0].status"));

  CHECK(read_error(nlohmann::json::array()) == "the document is not an object");
}

TEST_CASE("reading a sweep report refuses one that does not agree with itself") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));
  struct Case {
    const char* message;
    void (*change)(nlohmann::json&);
  };
  const Case cases[] = {
      {"field pairs[1].b \"lab9\" is not one of nodes",
       [](nlohmann::json& d) { d["pairs"][1]["b"] = "lab9"; }},
      {"field pairs[2] pairs lab1 with itself",
       [](nlohmann::json& d) { d["pairs"][2]["b"] = "lab1"; }},
      {"field pairs[5] repeats pairs[0] (lab2 and lab1 on rail 0)",
       [](nlohmann::json& d) {
         d["pairs"][5]["a"] = "lab2";
         d["pairs"][5]["b"] = "lab1";
       }},
      {"field nodes[4] \"lab2\" repeats nodes[1]",
       [](nlohmann::json& d) { d["nodes"].push_back("lab2"); }},
      {"field blamed[0].node \"lab9\" is not one of nodes",
       [](nlohmann::json& d) { d["blamed"][0]["node"] = "lab9"; }},
      {"field blamed[1].node \"lab1\" is blamed twice",
       [](nlohmann::json& d) {
         d["blamed"][0]["node"] = "lab1";
         d["blamed"].push_back(d["blamed"][0]);
       }},
      {"field rounds 9 is not 0..8", [](nlohmann::json& d) { d["rounds"] = 9; }},
      {"field pairs[0].round 4 is not 0..3", [](nlohmann::json& d) { d["pairs"][0]["round"] = 4; }},
      {"field pairs[0].attempts 3 is not 0..2",
       [](nlohmann::json& d) { d["pairs"][0]["attempts"] = 3; }},
      {"field pairs[0].seconds -1 is not 0..1e+07",
       [](nlohmann::json& d) { d["pairs"][0]["seconds"] = -1; }},
      {"field wall_seconds 1e+08 is not 0..1e+07",
       [](nlohmann::json& d) { d["wall_seconds"] = 1e8; }},
      {"field nodes: 4097 nodes; a report holds at most 4096: sweep fewer nodes at a time",
       [](nlohmann::json& d) {
         for (int i = 4; i < 4097; ++i) d["nodes"].push_back("n" + std::to_string(i));
       }},
  };
  for (const auto& c : cases) {
    auto document = good;
    c.change(document);
    CHECK(read_error(document) == c.message);
  }

  // The same two nodes on two rails are two pairs, not one listed twice.
  auto two_rails = good;
  two_rails["rails"] = 2;
  two_rails["pairs"].push_back(good["pairs"][0]);
  two_rails["pairs"].back()["rail"] = 1;
  CHECK(sweep_report_from_json(two_rails).ok());
}

TEST_CASE("a check report reads back as render_check_json wrote it") {
  const auto written = sample_check("lab<2>", true);
  const std::string json = render_check_json(written);
  auto read = check_report_from_json(nlohmann::json::parse(json));
  REQUIRE(read.ok());
  CHECK(render_check_json(*read) == json);
  CHECK(read->host == "lab<2>");
  CHECK(read->config_source == "/etc/ibkit/ibkit.toml");
  REQUIRE(read->results.size() == 2);
  CHECK(read->results[1].hint == "raise memlock in /etc/security/limits.d");

  auto sweep = check_report_from_json(nlohmann::json::parse(render_sweep_json(sample_sweep())));
  REQUIRE_FALSE(sweep.ok());
  CHECK(sweep.error().message == "schema \"ibkit.sweep/1\" is not ibkit.check/1");
  auto no_results = nlohmann::json::parse(json);
  no_results.erase("results");
  CHECK(check_report_from_json(no_results).error().message == "missing field results");
}

TEST_CASE(
    "sweep JSON names each pair's rule and the fleet's typical figures, and reads them back") {
  const auto json = nlohmann::json::parse(render_sweep_json(merged_sample()));
  CHECK(json["pairs"][0]["rule"] == "fleet");
  CHECK(json["pairs"][2]["rule"] == "threshold");
  CHECK(json["pairs"][1]["rule"] == "none");
  CHECK(json["fleet"]["on"] == true);
  CHECK(json["fleet"]["min_bandwidth_ratio"] == Approx(0.33));
  CHECK(json["fleet"]["max_latency_ratio"] == Approx(3));
  CHECK(json["fleet"]["references"][0] ==
        nlohmann::json::parse(R"({"subject": "bw write 1048576 B", "rail": 0,
                                  "figure": "bandwidth_gbps", "typical": 90.0, "nodes": 3})"));
  auto read = sweep_report_from_json(json);
  REQUIRE(read.ok());
  CHECK(pair_rules_name(read->pairs[0].rules) == "fleet");
  CHECK(pair_rules_name(read->pairs[2].rules) == "threshold");
  REQUIRE(read->fleet);
  REQUIRE(read->fleet->references.size() == 2);
  CHECK(read->fleet->references[1].latency);
  CHECK(read->fleet->references[1].typical == Approx(1.5));
  CHECK(read->fleet->references[1].typical_floor == Approx(1.35));
  CHECK(json["fleet"]["references"][1]["typical_floor"] == Approx(1.35));
}

TEST_CASE("a sweep report from before rules were recorded reads as not recorded") {
  auto old = nlohmann::json::parse(render_sweep_json(merged_sample()));
  old.erase("fleet");
  for (auto& pair : old["pairs"]) pair.erase("rule");
  auto read = sweep_report_from_json(old);
  REQUIRE(read.ok());
  CHECK_FALSE(read->fleet);
  for (const auto& pair : read->pairs) CHECK(pair_rules_name(pair.rules) == "not recorded");
  // And it is written back as it was: no rule is made up for it.
  CHECK(nlohmann::json::parse(render_sweep_json(*read)) == old);
}

TEST_CASE("reading a sweep report names a wrong rule or fleet field") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));

  auto document = good;
  document["pairs"][0]["rule"] = "vibes";
  CHECK(read_error(document) ==
        "field pairs[0].rule \"vibes\" is not \"threshold\", \"fleet\", "
        "\"threshold+fleet\" or \"none\"");

  document = good;
  document["pairs"][0]["rule"] = 3;
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[0].rule 3 is not"));

  document = good;
  document["fleet"]["references"][1]["figure"] = "speed";
  CHECK(read_error(document) ==
        "field fleet.references[1].figure \"speed\" is not latency_us or bandwidth_gbps");

  document = good;
  document["fleet"]["references"][0]["rail"] = 64;
  CHECK(read_error(document) == "field fleet.references[0].rail 64 is not 0..63");

  document = good;
  document["fleet"]["max_latency_ratio"] = 0.5;
  CHECK(read_error(document) == "field fleet.max_latency_ratio is not a number of at least 1");

  document = good;
  document["fleet"].erase("on");
  CHECK(read_error(document) == "missing field fleet.on");

  document = good;
  document["fleet"] = "on";
  CHECK(read_error(document) == "fleet is not an object");
}

}  // namespace ibkit
