#include "report/report_merge.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "model/check_report.hpp"
#include "model/sweep_report.hpp"
#include "report/check_json.hpp"
#include "run_ibkit.hpp"
#include "schema/check_report_json.hpp"
#include "schema/report_input.hpp"
#include "schema/sweep_report_json.hpp"
#include "scratch_path.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

using test::run_ibkit;
using test::sample_check;

SweepReport passing_sweep() {
  SweepReport report = test::sample_sweep();
  report.nodes = {"lab1", "lab2"};
  report.pairs = {test::measured_pair("lab1", "lab2", 1, 1.5, 90)};
  report.blamed.clear();
  return report;
}

ReportInput check_input(const std::string& path, const std::string& host, bool failing) {
  return {path, sample_check(host, failing)};
}

std::string merge_error(const std::vector<ReportInput>& inputs) {
  auto merged = merge_reports(inputs);
  REQUIRE_FALSE(merged.ok());
  return merged.error().message;
}

// A scratch directory of report files, removed afterwards.
class ReportFiles {
 public:
  ReportFiles() : dir_(ibkit::test::scratch_path("report-inputs")) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ReportFiles() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name) << content;
    return (dir_ / name).string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

const std::string kFixtures = std::string(ibkit::test::source_dir()) + "/tests/fixtures/reports/";

}  // namespace

TEST_CASE("merge: the checks join the sweep, and a failed check fails the verdict",
          "[report][schema]") {
  std::vector<ReportInput> inputs{check_input("a.json", "lab1", false),
                                  {"sweep.json", passing_sweep()},
                                  check_input("b.json", "lab2", false)};
  auto merged = merge_reports(inputs);
  REQUIRE(merged.ok());
  CHECK(merged->nodes == std::vector<std::string>{"lab1", "lab2"});
  CHECK(merged->pairs.size() == 1);
  REQUIRE(merged->node_checks.size() == 2);
  CHECK(merged->node_checks[1].host == "lab2");
  CHECK_FALSE(sweep_failed(*merged));

  inputs[2] = check_input("b.json", "lab2", true);
  merged = merge_reports(inputs);
  REQUIRE(merged.ok());
  CHECK(sweep_failed(*merged));
}

TEST_CASE("merge: checks alone make a report of the checked hosts", "[report][schema]") {
  auto early = sample_check("lab1", false);
  auto late = sample_check("lab2", false);
  late.generated_at = "2026-11-22T09:30:00Z";
  auto merged = merge_reports({{"a.json", early}, {"b.json", late}});
  REQUIRE(merged.ok());
  CHECK(merged->nodes == std::vector<std::string>{"lab1", "lab2"});
  CHECK(merged->pairs.empty());
  CHECK(merged->generated_at == "2026-11-22T09:30:00Z");
  CHECK_FALSE(sweep_failed(*merged));
}

TEST_CASE("merge: two sweeps, or two reports of one host, are errors naming both files",
          "[report][schema]") {
  CHECK(merge_error({{"one.json", passing_sweep()}, {"two.json", passing_sweep()}}) ==
        "two.json and one.json are both sweep reports; give one");
  CHECK(merge_error({check_input("a.json", "lab1", false), check_input("b.json", "lab2", false),
                     check_input("c.json", "lab1", true)}) ==
        "c.json and a.json are both check reports of lab1");
  // A sweep merged before carries its checks: the same host again is a duplicate.
  auto merged_before = passing_sweep();
  merged_before.node_checks = {sample_check("lab2", false)};
  CHECK(
      merge_error({{"old/report.json", merged_before}, check_input("lab2.json", "lab2", false)}) ==
      "lab2.json and old/report.json are both check reports of lab2");
  CHECK(merge_error({}) == "no report to merge");
}

TEST_CASE("merge: more nodes than a report holds is an error naming the cap", "[report][schema]") {
  std::vector<ReportInput> checks;
  for (int i = 0; i <= 4096; ++i) {
    checks.push_back(
        check_input("n" + std::to_string(i) + ".json", "n" + std::to_string(i), false));
  }
  CHECK(merge_error(checks) ==
        "the reports name 4097 nodes; a report holds at most 4096: sweep fewer nodes at a time");
  checks.pop_back();
  CHECK(merge_reports(checks).ok());

  // Checked hosts the sweep did not test join its matrices, on every rail.
  auto sweep = passing_sweep();
  sweep.rails = 64;
  std::vector<ReportInput> inputs = {{"s.json", sweep}};
  for (int i = 0; i < 600; ++i)
    inputs.push_back(check_input("c.json", "c" + std::to_string(i), false));
  CHECK_THAT(merge_error(inputs),
             Catch::StartsWith("the reports name 602 nodes on 64 rails make 23193856 matrix "
                               "cells; a report holds at most 16777216"));
}

TEST_CASE("report inputs are read by their schema, errors start with the file",
          "[report][schema]") {
  ReportFiles files;
  auto check = read_report_input(files.write("c.json", render_check_json(sample_check("n", true))));
  REQUIRE(check.ok());
  CHECK(std::get<CheckReport>(check->report).host == "n");
  auto sweep = read_report_input(files.write("s.json", render_sweep_json(passing_sweep())));
  REQUIRE(sweep.ok());
  CHECK(std::get<SweepReport>(sweep->report).pairs.size() == 1);

  const auto pair_path = files.write("p.json", "{\"schema\": \"ibkit.pair/1\"}");
  CHECK_THAT(read_report_input(pair_path).error().message,
             Catch::StartsWith(pair_path + ": schema \"ibkit.pair/1\" is neither ibkit.check/1"));
  const auto garbage = files.write("g.json", "{not json");
  CHECK(read_report_input(garbage).error().message == garbage + ": not JSON");
  const auto broken = files.write("b.json", "{\"schema\": \"ibkit.check/1\", \"host\": 3}");
  CHECK(read_report_input(broken).error().message == broken + ": field host is not a string");
  CHECK(read_report_input(files.path("none.json")).error().message ==
        files.path("none.json") + ": cannot read: No such file or directory");
}

TEST_CASE("ibkit report: one verdict from the example sweep and checks, exit 0/1/2",
          "[report][schema]") {
  auto failing = run_ibkit("report " + kFixtures + "sweep.json " + kFixtures + "check-lab1.json " +
                           kFixtures + "check-lab4.json");
  CHECK(failing.exit_code == 1);
  CHECK_THAT(failing.out, Catch::Contains("blamed  lab4: every pair failed or was slow"));
  CHECK_THAT(failing.out, Catch::Contains("fail    memlock"));
  CHECK_THAT(failing.out, Catch::EndsWith("FAIL: blamed nodes 1, pairs not passed 3 of 6, failed "
                                          "node checks 1 of 2\n"));

  auto passing = run_ibkit("report --format json " + kFixtures + "sweep-pass.json " + kFixtures +
                           "check-lab1.json");
  CHECK(passing.exit_code == 0);
  CHECK_THAT(passing.out, Catch::Contains("\"verdict\":\"pass\""));

  // A failed check fails a passing sweep.
  CHECK(run_ibkit("report --format md " + kFixtures + "sweep-pass.json " + kFixtures +
                  "check-lab4.json")
            .exit_code == 1);

  auto duplicate =
      run_ibkit("report " + kFixtures + "check-lab1.json " + kFixtures + "check-lab1.json");
  CHECK(duplicate.exit_code == 2);
  CHECK_THAT(duplicate.err, Catch::Contains("are both check reports of lab1"));
  auto unknown = run_ibkit("report " + kFixtures + "generate.py");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("generate.py: not JSON"));
  CHECK(run_ibkit("report").exit_code == 2);
  CHECK(run_ibkit("report --format all " + kFixtures + "sweep.json").exit_code == 2);
}

TEST_CASE("ibkit report --output DIR writes the report files and prints the text",
          "[report][schema]") {
  ReportFiles files;
  const auto dir = files.path("out");
  auto outcome = run_ibkit("report --output " + dir + " " + kFixtures + "sweep.json " + kFixtures +
                           "check-lab4.json");
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("wrote " + dir + "/report.html"));
  CHECK(std::filesystem::exists(dir + "/junit.xml"));
  CHECK(std::filesystem::exists(dir + "/latency.csv"));
  // What was written reads back as the same merged report.
  auto again = run_ibkit("report --format json " + dir + "/report.json");
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.out, Catch::Contains("\"host\":\"lab4\""));

  auto html_only =
      run_ibkit("report --format html --output " + dir + "/html " + kFixtures + "sweep-pass.json");
  CHECK(html_only.exit_code == 0);
  CHECK(std::filesystem::exists(dir + "/html/report.html"));
  CHECK_FALSE(std::filesystem::exists(dir + "/html/report.json"));

  files.write("blocker", "a file where the directory should be");
  auto blocked =
      run_ibkit("report --output " + files.path("blocker") + " " + kFixtures + "sweep.json");
  CHECK(blocked.exit_code == 2);
  CHECK_THAT(blocked.err, Catch::Contains("--output " + files.path("blocker")));
}

TEST_CASE("ibkit report: a report.json with an absurd rail count is a usage error, at once",
          "[report][schema]") {
  ReportFiles files;
  auto document = nlohmann::json::parse(render_sweep_json(passing_sweep()));
  document["rails"] = 2000000000;
  const auto corrupt = files.write("rails.json", document.dump());
  auto outcome = run_ibkit("report --format html " + corrupt);
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.out.empty());
  CHECK(outcome.err == "ibkit report: " + corrupt + ": field rails 2000000000 is not 1..64\n");
}

}  // namespace ibkit

namespace ibkit {
namespace {

CheckReport sample_fabric(const std::string& from, bool failing) {
  CheckReport report{from, "2026-11-22T08:10:00Z", "the subnet as discovered from mlx5_0", {}};
  report.command = "fabric";
  report.results.push_back({"fabric.sm", "subnet", Status::kPass, "MASTER sm1", "one MASTER", ""});
  if (failing) {
    report.results.push_back({"fabric.counters", "leaf2 (0x2) port 7 (link to leaf1 (0x1) port 7)",
                              Status::kFail, "symbol_error 1200 > 10", "within [limits]",
                              "reseat or replace the cable"});
  }
  return report;
}

}  // namespace

TEST_CASE(
    "merge: an ibkit fabric report joins as the fabric, not as a node, and its failure "
    "fails the verdict in every format",
    "[report][schema][fabric]") {
  std::vector<ReportInput> inputs{check_input("lab1.json", "lab1", false),
                                  {"sweep.json", passing_sweep()},
                                  {"fabric.json", sample_fabric("lab1", false)}};
  auto merged = merge_reports(inputs);
  REQUIRE(merged.ok());
  CHECK(merged->nodes == std::vector<std::string>{"lab1", "lab2"});
  CHECK(merged->node_checks.size() == 1);
  REQUIRE(merged->fabric_checks.size() == 1);
  CHECK_FALSE(sweep_failed(*merged));

  inputs[2] = {"fabric.json", sample_fabric("lab1", true)};
  merged = merge_reports(inputs);
  REQUIRE(merged.ok());
  CHECK(sweep_failed(*merged));
  // report.json carries it through a second merge, with its command.
  auto reread = sweep_report_from_json(nlohmann::json::parse(render_sweep_json(*merged)));
  REQUIRE(reread.ok());
  REQUIRE(reread->fabric_checks.size() == 1);
  CHECK(reread->fabric_checks[0].command == "fabric");
  CHECK(reread->fabric_checks[0].results[1].observed == "symbol_error 1200 > 10");
  CHECK(reread->node_checks.size() == 1);

  ReportFiles files;
  const std::string fabric =
      files.write("fabric.json", render_check_json(sample_fabric("lab1", true)));
  const std::string check =
      files.write("lab1.json", render_check_json(sample_check("lab1", false)));
  auto outcome =
      run_ibkit("report " + check + " " + fabric + " --format all --output " + files.path("out"));
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::StartsWith("ibkit report: 1 node, 1 node check report, 1 fabric "
                                            "report\n"));
  CHECK_THAT(outcome.out, Catch::Contains("\nFAIL: failed node checks 0 of 1, failed fabric "
                                          "reports 1 of 1\n"));
  CHECK_THAT(outcome.out, Catch::Contains("\nfabric as discovered from lab1, mlx5_0:\n"));
  CHECK_THAT(outcome.out,
             Catch::Contains("failed node checks 0 of 1, failed fabric reports 1 of 1"));
  auto read_file = [&](const std::string& name) {
    std::ifstream in(files.path("out/" + name));
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const auto summary = nlohmann::json::parse(read_file("summary.json"));
  CHECK(summary["nodes"] == 1);
  CHECK(summary["failed_fabric_checks"][0]["observed"] == "symbol_error 1200 > 10");
  CHECK_THAT(read_file("report.html"), Catch::Contains("<h2>Fabric</h2>"));
  CHECK_THAT(read_file("report.html"), Catch::Contains("as discovered from lab1, mlx5_0: FAIL"));
  CHECK_THAT(read_file("summary.md"),
             Catch::Contains("| lab1, mlx5\\_0 | fabric.counters | **fail** |"));
  CHECK_THAT(read_file("junit.xml"), Catch::Contains("fabric from lab1"));
}

TEST_CASE("merge: two fabric reports from one host, or a command nobody writes, are refused",
          "[report][schema][fabric]") {
  CHECK(merge_error(
            {{"a.json", sample_fabric("lab1", false)}, {"b.json", sample_fabric("lab1", true)}}) ==
        "b.json and a.json are both fabric reports from lab1, mlx5_0");
  // Each rail's subnet from one host: two reports, named by their devices.
  auto rail2 = sample_fabric("lab1", true);
  rail2.config_source = "the subnet as discovered from mlx5_1";
  auto rails = merge_reports({{"a.json", sample_fabric("lab1", false)}, {"b.json", rail2}});
  REQUIRE(rails.ok());
  CHECK(rails->fabric_checks.size() == 2);
  CHECK(fabric_origin(rails->fabric_checks[1]) == "lab1, mlx5_1");
  rail2.config_source = "the subnet as discovered from the first device";
  CHECK(fabric_origin(rail2) == "lab1");
  // A fabric report is not a node's check, even inside node_checks of a report.json.
  SweepReport smuggled = passing_sweep();
  smuggled.node_checks = {sample_fabric("lab1", false)};
  auto reread = sweep_report_from_json(nlohmann::json::parse(render_sweep_json(smuggled)));
  REQUIRE_FALSE(reread.ok());
  CHECK(reread.error().message ==
        "node_checks[0]: an ibkit fabric report belongs in fabric_checks");
  auto document = nlohmann::json::parse(render_check_json(sample_fabric("lab1", false)));
  CHECK(document["command"] == "fabric");
  document["command"] = "sweep";
  auto read = check_report_from_json(document);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message == "field command: \"sweep\" is not check or fabric");
  CHECK_FALSE(
      nlohmann::json::parse(render_check_json(sample_check("lab1", false))).contains("command"));
}

}  // namespace ibkit
