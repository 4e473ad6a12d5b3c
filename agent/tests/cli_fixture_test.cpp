// The acceptance check: `ibkit check --root <fixture> --format json` gives the right
// verdict, exit code and hint for each seed machine and its broken variants.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "fixture_tree.hpp"
#include "run_ibkit.hpp"

using ibkit::test::FixtureTree;
using ibkit::test::run_ibkit;

namespace {

struct Expectation {
  const char* description;
  const char* fixture;
  const char* config;
  const char* break_file;  // relative path to overwrite, or nullptr
  const char* break_content;
  const char* verdict;
  const char* failing_id;     // a result that must fail, or nullptr
  const char* hint_fragment;  // part of that result's hint
};

const Expectation kExpectations[] = {
    {"mthca, port 1 required", "mthca-ddr-2port",
     "[expect]\nports = [\"mthca0/1\"]\nmin_rate_gbps = 16\n", nullptr, nullptr, "pass", nullptr,
     nullptr},
    {"mthca, every port required", "mthca-ddr-2port", "", nullptr, nullptr, "fail", "port.state",
     "no cable"},
    {"mthca, datagram 2044", "mthca-ddr-2port", "[expect]\nports = [\"mthca0/1\"]\n",
     "sys/class/net/ib0/mode", "datagram", "fail", "ipoib.mode", "echo connected"},
    {"cx4 on QDR", "cx4-qdr-gpu", "[expect]\nlink_layer = \"InfiniBand\"\nmin_rate_gbps = 32\n",
     nullptr, nullptr, "pass", nullptr, nullptr},
    {"cx4, governor powersave", "cx4-qdr-gpu", "",
     "sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave", "fail", "cpu.governor",
     "cpupower"},
    {"azure HBv3", "azure-hbv3-cx6vf",
     "[expect]\nlink_layer = \"InfiniBand\"\nmin_rate_gbps = 200\n", nullptr, nullptr, "pass",
     nullptr, nullptr},
    {"azure, no SM", "azure-hbv3-cx6vf", "[expect]\nlink_layer = \"InfiniBand\"\n",
     "sys/class/infiniband/mlx5_ib0/ports/1/state", "2: INIT", "fail", "port.state",
     "subnet manager"},
    {"qlogic QDR", "qlogic-qdr", "[expect]\nmin_rate_gbps = 32\n", nullptr, nullptr, "pass",
     nullptr, nullptr},
    {"qlogic, FDR expected", "qlogic-qdr", "[expect]\nmin_rate_gbps = 54.5\n", nullptr, nullptr,
     "fail", "port.rate", "lower speed"},
    {"rxe lab", "rxe-lab", "[expect]\nlink_layer = \"Ethernet\"\n", nullptr, nullptr, "fail",
     "memlock", "memlock unlimited"},
};

}  // namespace

TEST_CASE("check --format json on each fixture: verdict, exit code and hint", "[cli]") {
  for (const auto& expectation : kExpectations) {
    INFO(expectation.description);
    FixtureTree tree(expectation.fixture);
    if (expectation.break_file != nullptr)
      tree.write(expectation.break_file, expectation.break_content);
    const auto config = tree.path() / "ibkit-test.toml";
    std::ofstream(config) << expectation.config;

    auto outcome = run_ibkit("check --root " + tree.path().string() + " --config " +
                             config.string() + " --format json");
    INFO(outcome.err);
    auto report = nlohmann::json::parse(outcome.out);
    CHECK(report["schema"] == "ibkit.check/1");
    CHECK(report["verdict"] == expectation.verdict);
    CHECK(outcome.exit_code == (std::string(expectation.verdict) == "pass" ? 0 : 1));
    if (expectation.failing_id == nullptr) continue;
    bool found = false;
    for (const auto& result : report["results"]) {
      if (result["id"] == expectation.failing_id && result["status"] == "fail") {
        found = true;
        CHECK_THAT(result["hint"].get<std::string>(), Catch::Contains(expectation.hint_fragment));
      }
    }
    CHECK(found);
  }
}

TEST_CASE("check --output writes the chosen format and prints text", "[cli]") {
  FixtureTree tree("qlogic-qdr");
  const auto junit = tree.path() / "check.xml";
  auto outcome = run_ibkit("check --root " + tree.path().string() + " --format junit --output " +
                           junit.string());
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.out, Catch::Contains("PASS:"));
  std::ifstream in(junit);
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(xml, Catch::StartsWith("<?xml"));
  CHECK_THAT(xml, Catch::Contains("<testcase classname=\"port.state\" name=\"qib0/1\""));
  for (const auto& entry : std::filesystem::directory_iterator(tree.path())) {
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);  // none left
  }
}

TEST_CASE("devices --format json lists every HCA and port", "[cli]") {
  auto outcome = run_ibkit("devices --root " + std::string(ibkit::test::fixtures_dir()) +
                           "/azure-hbv3-cx6vf --format json");
  CHECK(outcome.exit_code == 0);
  auto devices = nlohmann::json::parse(outcome.out);
  CHECK(devices["schema"] == "ibkit.devices/1");
  REQUIRE(devices["devices"].size() == 2);
  const auto& ib = devices["devices"][1];
  CHECK(ib["name"] == "mlx5_ib0");
  CHECK(ib["firmware"] == "20.31.1014");
  // One notation in text and JSON, ibstat's and ibkit fabric's.
  CHECK(ib["node_guid"] == "0x00155dfffe33ff56");
  CHECK_THAT(
      run_ibkit("devices --root " + std::string(ibkit::test::fixtures_dir()) + "/azure-hbv3-cx6vf")
          .out,
      Catch::Contains("node GUID 0x00155dfffe33ff56"));
  CHECK(ib["ports"][0]["state"] == "ACTIVE");
  CHECK(ib["ports"][0]["sm_lid"] == 549);
  CHECK(ib["ports"][0]["netdev"] == "ib0");
  CHECK(ib["ports"][0]["data_rate_gbps"] == 200.0);
}
