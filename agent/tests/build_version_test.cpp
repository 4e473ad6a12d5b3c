#include "util/build_version.hpp"

#include <filesystem>
#include <regex>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "report/check_json.hpp"
#include "report/pair_json.hpp"
#include "run_ibkit.hpp"
#include "schema/check_report_json.hpp"
#include "schema/pair_report_json.hpp"
#include "schema/sweep_report_json.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

TEST_CASE("the agent's version is the project's, with the commit it was built from",
          "[util][schema][report]") {
  const std::string& version = build_version();
  CHECK(std::regex_match(version, std::regex(R"(\d+\.\d+\.\d+(\+[0-9A-Za-z.-]+)?)")));
  CHECK(version.rfind(ibkit::test::project_version(), 0) == 0);
  // This test is built from a git checkout (a clean clone in CI): the commit must be there.
  if (std::filesystem::exists(std::filesystem::path(ibkit::test::source_dir()) / ".git"))
    CHECK(version.find('+') != std::string::npos);
}

TEST_CASE("ibkit --version prints the version the reports record", "[util][schema][report]") {
  const auto run = test::run_ibkit("--version");
  CHECK(run.exit_code == 0);
  CHECK(run.out == "ibkit " + build_version() + "\n");
}

// `report` rendered by `render` names this agent's version, and `read` takes back another one.
template <class Report, class Render, class Read>
void records_the_version(const Report& report, Render render, Read read) {
  auto document = json::parse(render(report));
  CHECK(document["agent_version"] == build_version());
  document["agent_version"] = "0.0.9+old";
  auto read_back = read(document);
  REQUIRE(read_back.ok());
  CHECK(read_back->agent_version == "0.0.9+old");
}

TEST_CASE("every JSON report records the version of the agent that wrote it",
          "[util][schema][report]") {
  SECTION("a check report") {
    records_the_version(CheckReport{"node1", "2026-11-23T10:00:00Z", "built-in defaults", {}},
                        render_check_json, check_report_from_json);
  }
  SECTION("a pair report") {
    PairReport report;
    report.host = "node1";
    report.peer = "node2";
    records_the_version(report, render_pair_json, pair_report_from_json);
  }
  SECTION("a sweep report") {
    SweepReport report;
    report.nodes = {"node1", "node2"};
    records_the_version(report, render_sweep_json, sweep_report_from_json);
  }
}

TEST_CASE("a report older than the version field reads with no version, a wrong one is named",
          "[util][schema][report]") {
  PairReport report;
  report.host = "node1";
  report.peer = "node2";
  auto document = json::parse(render_pair_json(report));
  SECTION("absent") {
    document.erase("agent_version");
    auto read = pair_report_from_json(document);
    REQUIRE(read.ok());
    CHECK(read->agent_version.empty());
  }
  SECTION("not a string") {
    document["agent_version"] = 3;
    auto read = pair_report_from_json(document);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "field agent_version is not a string");
  }
}

}  // namespace
}  // namespace ibkit
