#include <cstdint>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "model/pair_warnings.hpp"
#include "model/sweep_report.hpp"
#include "report/check_json.hpp"
#include "report/sweep_csv.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_matrix.hpp"
#include "report/sweep_text.hpp"
#include "same_pair.hpp"
#include "schema/check_report_json.hpp"
#include "schema/report_input.hpp"
#include "schema/sweep_report_json.hpp"
#include "scratch_path.hpp"
#include "sweep_rows.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

using test::kHostileNode;
using test::row_value;
using test::sample_check;
using test::sample_sweep;
using test::set_row_value;

const std::string kFixtures = std::string(ibkit::test::source_dir()) + "/tests/fixtures/reports/";

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

TEST_CASE("sweep JSON carries the verdict, a row a pair, the reports that matter, blame and checks",
          "[schema][report][model]") {
  const auto text = render_sweep_json(merged_sample());
  CHECK(text.find("\n  ") == std::string::npos);  // compact: no indentation
  auto json = nlohmann::json::parse(text);
  CHECK(json["schema"] == "ibkit.sweep/3");
  CHECK(json["verdict"] == "fail");
  CHECK(json["nodes"][3] == kHostileNode);
  CHECK(json["rounds"] == 3);
  CHECK(json["wall_seconds"] == Approx(9.5));
  CHECK(json["counts"]["pass"] == 1);
  CHECK(json["counts"]["failed"] == 1);
  CHECK(json["counts"]["not_run"] == 1);
  CHECK(json["pair_columns"] ==
        nlohmann::json({"a", "b", "rail", "round", "seconds", "latency_us", "bandwidth_gbps",
                        "bandwidth_a_to_b_gbps", "bandwidth_b_to_a_gbps", "status", "reason",
                        "rule", "attempts"}));
  // Most of the sample's pairs were judged by no rule (they did not measure): that is the rule
  // a row leaves out.
  CHECK(json["pair_defaults"] ==
        nlohmann::json::parse(R"({"bandwidth_b_to_a_gbps": null, "status": "pass", "reason": 0,
                                  "rule": "none", "attempts": 1})"));
  REQUIRE(json["pairs"].size() == 6);
  // A one-way write: its bandwidth went from a to b only. A pass and one attempt, left out.
  CHECK(json["pairs"][0] ==
        nlohmann::json::parse(R"([0,1,0,1,2.5,1.5,90.0,90.0,null,"pass",0,"fleet"])"));
  CHECK(json["nodes"][row_value(json, 1, "b").get<int>()] == kHostileNode);
  CHECK(row_value(json, 1, "status") == "failed");
  CHECK(json["reasons"][row_value(json, 1, "reason").get<int>()] ==
        "bw: no completion for 10 s <peer gone>");
  CHECK(row_value(json, 1, "rule") == "none");
  CHECK(row_value(json, 3, "status") == "unreachable");
  CHECK(row_value(json, 3, "latency_us").is_null());
  // The whole report of the failed and the slow pair only: the passing one needs none.
  REQUIRE(json["details"].size() == 2);
  CHECK(json["details"][0]["pair"] == 1);
  CHECK(json["details"][0]["report"]["schema"] == "ibkit.pair/1");
  CHECK(json["details"][1]["pair"] == 2);
  CHECK(json["details"][1]["report"]["tests"][0]["verbs"]["sizes"].size() == 2);
  CHECK(json["details_omitted"] == 0);
  CHECK(json["warnings"].empty());
  CHECK(json["blamed"][0]["node"] == kHostileNode);
  CHECK(json["node_checks"][1]["verdict"] == "fail");
}

TEST_CASE("a sweep with every pair passing and no failed check passes", "[schema][report][model]") {
  SweepReport report = sample_sweep();
  report.pairs.resize(1);
  report.nodes = {report.pairs[0].a, report.pairs[0].b};
  report.blamed.clear();
  report.node_checks = {sample_check("lab1", false)};
  CHECK(nlohmann::json::parse(render_sweep_json(report))["verdict"] == "pass");
  CHECK_FALSE(nlohmann::json::parse(render_sweep_json(report)).contains("untested"));
  report.node_checks.push_back(sample_check("lab2", true));
  CHECK(nlohmann::json::parse(render_sweep_json(report))["verdict"] == "fail");
}

TEST_CASE(
    "a sweep that tested fewer nodes than it was given fails and names them, a sweep of no pairs "
    "too",
    "[schema][model]") {
  SweepReport report = sample_sweep();
  report.pairs.resize(1);
  report.blamed.clear();
  report.nodes = {report.pairs[0].a, "lab7", report.pairs[0].b, "lab9"};
  REQUIRE(report.pairs[0].status == PairStatus::kPass);
  CHECK(untested_nodes(report) == std::vector<std::string>{"lab7", "lab9"});
  CHECK(untested_text(report, 1) == "2 of 4 nodes untested (in no pair that ran): lab7 and 1 more");
  CHECK(sweep_failed(report));
  auto json = nlohmann::json::parse(render_sweep_json(report));
  CHECK(json["verdict"] == "fail");
  CHECK(json["untested"] == nlohmann::json::array({"lab7", "lab9"}));
  auto read = sweep_report_from_json(json);
  REQUIRE(read);
  CHECK(sweep_failed(*read));  // the rule, not a stored word, fails it again
  // A node whose pairs were all left out (the deadline, a silent partner) is untested too.
  report.nodes = {report.pairs[0].a, report.pairs[0].b};
  CHECK_FALSE(sweep_failed(report));
  report.pairs[0].status = PairStatus::kNotRun;
  CHECK(untested_nodes(report).size() == 2);
  // No pairs at all: 128 nodes, 0 rounds fails, naming them.
  report.pairs.clear();
  report.rounds = 0;
  report.nodes.clear();
  for (int i = 1; i <= 128; ++i) report.nodes.push_back("n" + std::to_string(i));
  CHECK(sweep_failed(report));
  CHECK(untested_text(report) ==
        "128 of 128 nodes untested (in no pair that ran): n1, n2, n3, n4, n5, n6, n7, n8 and 120 "
        "more");
  // A report of checks alone (no pattern) has no pairs to test nodes with.
  report.pattern.clear();
  CHECK(untested_nodes(report).empty());
  CHECK_FALSE(sweep_failed(report));
}

namespace {

// What every report format shows of a pair must survive a report read without its details.
void check_same_pair(const SweepPair& read, const SweepPair& written) {
  INFO(written.a << " -> " << written.b);
  test::check_same_pair_outcome(read, written);
  CHECK(read.seconds == Approx(written.seconds).margin(0.001));
  const auto read_figures = pair_figures(read);
  const auto written_figures = pair_figures(written);
  CHECK(read_figures.latency_us.has_value() == written_figures.latency_us.has_value());
  CHECK(read_figures.latency_us.value_or(0) ==
        Approx(written_figures.latency_us.value_or(0)).margin(0.001));
  CHECK(read_figures.bandwidth_gbps.value_or(-1) ==
        Approx(written_figures.bandwidth_gbps.value_or(-1)).margin(0.001));
}

}  // namespace

TEST_CASE("a sweep report reads back as it was written", "[schema][report][model]") {
  auto written = merged_sample();
  written.pairs[0].report->results.push_back(
      {"pair.ends", "lab1 mlx5_0/1 - lab2 mlx5_0/1", Status::kWarn, "MTU 4096 and 1024", "", ""});
  const std::string json = render_sweep_json(written);
  auto read = sweep_report_from_json(nlohmann::json::parse(json));
  REQUIRE(read.ok());
  CHECK(render_sweep_json(*read) == json);
  CHECK(read->nodes == written.nodes);
  CHECK(read->tests == written.tests);
  CHECK(read->pattern == "all-pairs");
  REQUIRE(read->pairs.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) check_same_pair(read->pairs[i], written.pairs[i]);
  // Reports of the pairs that failed, were slow or warned; none of the others.
  CHECK(read->pairs[0].report.has_value());
  CHECK(read->pairs[1].report.has_value());
  CHECK(read->pairs[2].report.has_value());
  CHECK_FALSE(read->pairs[4].report.has_value());
  CHECK(read->pairs[2].report->outcomes[0].verbs->sizes[1].latency->typical_us == Approx(3.0));
  REQUIRE(warned_pairs(*read).size() == 1);
  CHECK(warned_pairs(*read)[0].results[0]->observed == "MTU 4096 and 1024");
  REQUIRE(read->node_checks.size() == 2);
  CHECK(read->node_checks[1].results[1].status == Status::kFail);
  CHECK(read->blamed[0].reason == written.blamed[0].reason);
}

namespace {

// An all-pairs sweep of `nodes` nodes in which every pair passes with a warning.
SweepReport warned_sweep(int nodes) {
  SweepReport report = sample_sweep();
  report.nodes.clear();
  report.pairs.clear();
  report.blamed.clear();
  for (int i = 0; i < nodes; ++i) report.nodes.push_back("n" + std::to_string(i));
  for (int a = 0; a < nodes; ++a) {
    for (int b = a + 1; b < nodes; ++b) {
      auto pair = test::measured_pair(report.nodes[a], report.nodes[b], 1, 1 + a * 0.01, 90 - b);
      pair.report->results.push_back(
          {"pair.ends", pair.a + " - " + pair.b, Status::kWarn, "MTU 4096 and 1024", "", ""});
      report.pairs.push_back(std::move(pair));
    }
  }
  return report;
}

}  // namespace

TEST_CASE(
    "a report keeps 2000 pairs' reports, and the others still show their figures and warnings",
    "[schema][report][model]") {
  const auto written = warned_sweep(64);  // 2016 pairs, each warned
  const auto json = render_sweep_json(written);
  const auto document = nlohmann::json::parse(json);
  CHECK(document["details"].size() == 2000);
  CHECK(document["details_omitted"] == 16);
  auto read = sweep_report_from_json(document);
  REQUIRE(read.ok());
  CHECK_FALSE(read->pairs.back().report.has_value());
  for (std::size_t i = 0; i < written.pairs.size(); ++i)
    check_same_pair(read->pairs[i], written.pairs[i]);
  CHECK(warned_pairs(*read).size() == written.pairs.size());
  CHECK(render_sweep_markdown(*read) == render_sweep_markdown(written));
  CHECK(render_sweep_csv(*read, "latency_us") == render_sweep_csv(written, "latency_us"));
  CHECK(render_sweep_csv(*read, "bandwidth_gbps") == render_sweep_csv(written, "bandwidth_gbps"));
  CHECK(render_sweep_text(*read, false) == render_sweep_text(written, false));
  // Written again, the count of reports left out is kept, not lost with them.
  CHECK(nlohmann::json::parse(render_sweep_json(*read))["details_omitted"] == 16);
}

TEST_CASE("reading a sweep report names the field that is missing or wrong",
          "[schema][report][model]") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));

  auto document = good;
  document["schema"] = "ibkit.sweep/4";
  CHECK(read_error(document) ==
        "schema \"ibkit.sweep/4\" is not ibkit.sweep/3 (nor ibkit.sweep/2 or ibkit.sweep/1)");

  // A row holds every column up to its bandwidth from a to b, the first with no default.
  document = good;
  document["pairs"][2].get_ref<nlohmann::json::array_t&>().resize(7);
  CHECK(read_error(document) ==
        "field pairs[2] is not an array of 8 to 13 values (pair_columns, pair_defaults)");
  document = good;
  set_row_value(document, 2, "attempts", 1);
  document["pairs"][2].push_back(1);
  CHECK(read_error(document) ==
        "field pairs[2] is not an array of 8 to 13 values (pair_columns, pair_defaults)");

  document = good;
  set_row_value(document, 2, "status", "broken");
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[2].status \"broken\" is not"));

  document = good;
  document["pair_columns"][0] = "from";
  CHECK_THAT(read_error(document), Catch::StartsWith("field pair_columns is not [\"a\",\"b\""));

  // A default is read where it is written: an error in it names it there, not a row that left
  // it out (the pass in pairs[0] had one attempt).
  document = good;
  REQUIRE(good["pairs"][0].size() < good["pair_columns"].size());
  document["pair_defaults"]["attempts"] = "one";
  CHECK(read_error(document) == "field pair_defaults.attempts is not an integer");
  document = good;
  document["pair_defaults"]["speed"] = 1;
  CHECK(read_error(document) == "field pair_defaults.speed is not one of pair_columns");
  document = good;
  document.erase("pair_defaults");
  CHECK(read_error(document) == "missing field pair_defaults");

  document = good;
  set_row_value(document, 0, "reason", 99);
  CHECK(read_error(document) == "field pairs[0].reason 99 is not 0..5");

  document = good;
  set_row_value(document, 0, "latency_us", "fast");
  CHECK(read_error(document) == "field pairs[0].latency_us is not a number or null");

  document = good;
  set_row_value(document, 0, "rule", "luck");
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[0].rule \"luck\" is not"));

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
  set_row_value(document, 1, "rail", good["rails"].get<int>());
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[1].rail "));

  document = good;
  set_row_value(document, 1, "rail", -1);
  CHECK_THAT(read_error(document), Catch::StartsWith("field pairs[1].rail -1 is not 0.."));

  document = good;
  document["nodes"][1] = 7;
  CHECK(read_error(document) == "field nodes[1] is not a string");

  document = good;
  document["blamed"][0].erase("reason");
  CHECK(read_error(document) == "missing field blamed[0].reason");

  document = good;
  document["details"][0]["report"]["tests"][0]["verbs"]["sizes"][0].erase("bytes");
  CHECK(read_error(document) == "details[0].report: missing field tests[0].verbs.sizes[0].bytes");

  document = good;
  document["details"][0]["pair"] = 6;
  CHECK(read_error(document) == "field details[0].pair 6 is not 0..5");

  document = good;
  document["details"][1]["pair"] = 1;
  CHECK_THAT(read_error(document),
             Catch::StartsWith("field details[1].pair repeats the report of"));

  // Each report moved to the other's row: the figures its row states give it away.
  document = good;
  document["details"][0]["pair"] = 2;
  document["details"][1]["pair"] = 1;
  CHECK(read_error(document) ==
        "field details[0].report is not the report of lab1 -> lab3 rail 0: it has latency_us 2.0 "
        "where its row has 3.0");

  document = good;
  document["warnings"] = nlohmann::json::parse(R"([{"pair": 0, "results": [{"id": "x"}]}])");
  CHECK_THAT(read_error(document), Catch::StartsWith("warnings[0].results: "));

  document = good;
  document["details_omitted"] = 7u;
  CHECK(read_error(document) == "field details_omitted 7 is more than the 6 pairs");

  document = good;
  document["node_checks"][1]["results"][0]["status"] = "great";
  CHECK_THAT(read_error(document), Catch::StartsWith("node_checks[1]: results[0].status"));

  CHECK(read_error(nlohmann::json::array()) == "the document is not an object");
}

TEST_CASE("reading a sweep report refuses a pair's report filed under another pair",
          "[schema][report][model]") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));
  REQUIRE(sweep_report_from_json(good).ok());
  // details[1] is the report of lab1 -> lab3; pairs[3] is lab2 -> lab4, unreachable: no figures
  // in its row to give the move away.
  auto document = good;
  REQUIRE(document["details"][1]["pair"] == 2);
  document["details"][1]["pair"] = 3;
  CHECK(read_error(document) ==
        "field details[1].report: it is the report of lab1 -> lab3, not "
        "of lab2 -> " +
            kHostileNode + " rail 0");
  // As `ibkit report` and --baseline read it: one line naming the file and the entry.
  const auto path = test::write_scratch_file("misfiled.json", document.dump());
  auto read = read_report_input(path);
  REQUIRE_FALSE(read.ok());
  CHECK_THAT(read.error().message,
             Catch::StartsWith(path + ": field details[1].report: it is the report of lab1"));
  CHECK(read.error().message.find('\n') == std::string::npos);
  std::filesystem::remove(path);

  // The same in a report of ibkit.sweep/1, where each pair holds its report.
  std::ifstream file(kFixtures + "sweep-v1.json");
  const auto v1 = nlohmann::json::parse(file);
  REQUIRE(sweep_report_from_json(v1).ok());
  auto moved = v1;
  std::swap(moved["pairs"][0]["report"], moved["pairs"][1]["report"]);
  CHECK_THAT(read_error(moved), Catch::StartsWith("field pairs[0].report: it is the report of "));
}

TEST_CASE("reading a sweep report refuses one that does not agree with itself",
          "[schema][report][model]") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));
  struct Case {
    const char* message;
    void (*change)(nlohmann::json&);
  };
  const Case cases[] = {
      {"field pairs[1].b 9 is not 0..3", [](nlohmann::json& d) { set_row_value(d, 1, "b", 9); }},
      {"field pairs[2] pairs lab1 with itself",
       [](nlohmann::json& d) { set_row_value(d, 2, "b", 0); }},
      {"field pairs[5] repeats pairs[0] (lab2 and lab1 on rail 0)",
       [](nlohmann::json& d) {
         set_row_value(d, 5, "a", 1);
         set_row_value(d, 5, "b", 0);
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
      // Above what an int64_t holds: written as it came, never as a negative number.
      {"field rounds 9223372036854775808 is not 0..8",
       [](nlohmann::json& d) { d["rounds"] = std::uint64_t{1} << 63; }},
      {"field pairs[0].a 18446744073709551615 is not 0..3",
       [](nlohmann::json& d) { set_row_value(d, 0, "a", UINT64_MAX); }},
      {"field fleet.references[0].nodes 9223372036854775809 is not 0..1000000",
       [](nlohmann::json& d) {
         d["fleet"]["references"][0]["nodes"] = (std::uint64_t{1} << 63) + 1;
       }},
      {"field pairs[0].round 4 is not 0..3",
       [](nlohmann::json& d) { set_row_value(d, 0, "round", 4); }},
      {"field pairs[0].attempts 3 is not 0..2",
       [](nlohmann::json& d) { set_row_value(d, 0, "attempts", 3); }},
      {"field pairs[0].seconds -1 is not 0..1e+07",
       [](nlohmann::json& d) { set_row_value(d, 0, "seconds", -1); }},
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
  set_row_value(two_rails, two_rails["pairs"].size() - 1, "rail", 1);
  CHECK(sweep_report_from_json(two_rails).ok());
}

TEST_CASE("a report of ibkit.sweep/1 still reads: every pair an object with its whole report",
          "[schema][report][model]") {
  std::ifstream file(kFixtures + "sweep-v1.json");
  const auto v1 = nlohmann::json::parse(file);
  REQUIRE(v1["schema"] == "ibkit.sweep/1");
  auto read = sweep_report_from_json(v1);
  REQUIRE(read.ok());
  REQUIRE(read->pairs.size() == 6);
  CHECK(read->pairs[0].a == "lab1");
  CHECK(read->pairs[0].b == "lab4");
  CHECK(read->pairs[0].status == PairStatus::kFailed);
  CHECK(read->pairs[0].reason == v1["pairs"][0]["reason"]);
  REQUIRE(read->pairs[0].report.has_value());
  CHECK(pair_figures(read->pairs[0]).latency_us == Approx(1.09));
  // Written again it is ibkit.sweep/3, and reads back the same.
  auto again = sweep_report_from_json(nlohmann::json::parse(render_sweep_json(*read)));
  REQUIRE(again.ok());
  for (std::size_t i = 0; i < 6; ++i) check_same_pair(again->pairs[i], read->pairs[i]);

  auto document = v1;
  document["pairs"][2].erase("status");
  CHECK(read_error(document) == "missing field pairs[2].status");
  document = v1;
  document["pairs"][0]["report"]["tests"][0]["verbs"]["sizes"][0].erase("bytes");
  CHECK(read_error(document) == "pairs[0].report: missing field tests[0].verbs.sizes[0].bytes");
  document = v1;
  document["pairs"][1]["b"] = "lab9";
  CHECK(read_error(document) == "field pairs[1].b \"lab9\" is not one of nodes");
}

TEST_CASE("the example sweep, written by the agent's sweep, reads and is written again the same",
          "[schema][report][model]") {
  std::ifstream file(kFixtures + "sweep.json");
  const auto document = nlohmann::json::parse(file);
  REQUIRE(document["schema"] == "ibkit.sweep/3");
  auto read = sweep_report_from_json(document);
  REQUIRE(read.ok());
  REQUIRE(read->pairs.size() == 6);
  CHECK(nlohmann::json::parse(render_sweep_json(*read)) == document);
}

TEST_CASE("a report of ibkit.sweep/2 still reads: the pairs of the same sweep written as /3",
          "[schema][report][model]") {
  // sweep-v2.json is the example sweep as the agent wrote it before ibkit.sweep/3.
  std::ifstream v2_file(kFixtures + "sweep-v2.json");
  const auto v2 = nlohmann::json::parse(v2_file);
  REQUIRE(v2["schema"] == "ibkit.sweep/2");
  std::ifstream v3_file(kFixtures + "sweep.json");
  const auto v3 = sweep_report_from_json(nlohmann::json::parse(v3_file));
  auto read = sweep_report_from_json(v2);
  REQUIRE(read.ok());
  REQUIRE(v3.ok());
  REQUIRE(read->pairs.size() == v3->pairs.size());
  for (std::size_t i = 0; i < read->pairs.size(); ++i) {
    check_same_pair(read->pairs[i], v3->pairs[i]);
    CHECK(read->pairs[i].report.has_value() == v3->pairs[i].report.has_value());
  }
  CHECK(render_sweep_markdown(*read) == render_sweep_markdown(*v3));
  // Written again it is /3, the file the agent writes of that sweep.
  CHECK(render_sweep_json(*read) == render_sweep_json(*v3));
}

TEST_CASE("a report of ibkit.sweep/2 holds its rows' figures to a thousandth, as it wrote them",
          "[schema][report][model]") {
  // The slow lab2 -> lab4 measured 61.6249 Gb/s: /2's row says 61.625, which kept_figure would
  // make 61.63 where the report's own figure is 61.62. Read as /2 rounds, it is the pair's own.
  std::ifstream file(kFixtures + "sweep-v2.json");
  auto v2 = nlohmann::json::parse(file);
  REQUIRE(v2["details"][1]["pair"] == 2);
  auto& sizes = v2["details"][1]["report"]["tests"][1]["verbs"]["sizes"];
  REQUIRE(sizes[1]["bytes"] == 1048576);
  sizes[1]["bandwidth"]["gbps"] = 61.6249;
  v2["pairs"][2][10] = 61.625;  // bandwidth_gbps
  v2["pairs"][2][11] = 61.625;  // bandwidth_a_to_b_gbps
  auto read = sweep_report_from_json(v2);
  INFO((read ? "" : read.error().message));
  REQUIRE(read.ok());
  CHECK(pair_figures(read->pairs[2]).bandwidth_gbps == 61.6249);
  // A row that states another figure is still refused.
  v2["pairs"][2][10] = 61.7;
  CHECK(read_error(v2) ==
        "field details[1].report is not the report of lab2 -> lab4 rail 0: it has bandwidth_gbps "
        "61.625 where its row has 61.7");
}

TEST_CASE("a check report reads back as render_check_json wrote it", "[schema][report][model]") {
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
  CHECK(sweep.error().message == "schema \"ibkit.sweep/3\" is not ibkit.check/1");
  auto no_results = nlohmann::json::parse(json);
  no_results.erase("results");
  CHECK(check_report_from_json(no_results).error().message == "missing field results");
}

TEST_CASE("sweep JSON names each pair's rule and the fleet's typical figures, and reads them back",
          "[schema][report][model]") {
  const auto json = nlohmann::json::parse(render_sweep_json(merged_sample()));
  CHECK(row_value(json, 0, "rule") == "fleet");
  CHECK(row_value(json, 2, "rule") == "threshold");
  CHECK(row_value(json, 1, "rule") == "none");
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

TEST_CASE("a sweep report from before rules were recorded reads as not recorded",
          "[schema][report][model]") {
  auto old = test::as_sweep_v2(nlohmann::json::parse(render_sweep_json(merged_sample())));
  old.erase("fleet");
  for (auto& pair : old["pairs"]) pair[6] = nullptr;
  auto read = sweep_report_from_json(old);
  REQUIRE(read.ok());
  CHECK_FALSE(read->fleet);
  for (const auto& pair : read->pairs) CHECK(pair_rules_name(pair.rules) == "not recorded");
  // And it is written back so: no rule is made up for it.
  const auto again = nlohmann::json::parse(render_sweep_json(*read));
  CHECK(again["pair_defaults"]["rule"].is_null());
  for (std::size_t i = 0; i < again["pairs"].size(); ++i)
    CHECK(row_value(again, i, "rule").is_null());
}

TEST_CASE("reading a sweep report names a wrong rule or fleet field", "[schema][report][model]") {
  const auto good = nlohmann::json::parse(render_sweep_json(merged_sample()));

  auto document = good;
  set_row_value(document, 0, "rule", "vibes");
  CHECK(read_error(document) ==
        "field pairs[0].rule \"vibes\" is not \"none\" nor threshold, fleet and baseline "
        "joined by +");

  document = good;
  set_row_value(document, 0, "rule", 3);
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
