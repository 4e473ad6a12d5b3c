// port.counters on fixture trees whose counter files are broken: whatever stands in for a count,
// the check never says "no errors".
#include <chrono>
#include <filesystem>

#include <catch2/catch.hpp>

#include "fabric/port_error_check.hpp"
#include "fixture_tree.hpp"
#include "sysfs/hca.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

constexpr const char* kMthcaConfig = R"(
[expect]
link_layer = "InfiniBand"
ports = ["mthca0/1"]
)";

const std::string kCounters = "sys/class/infiniband/mthca0/ports/1/counters";

CheckResult counters_of(const CheckRun& run) {
  return find_result(run, "port.counters", "mthca0/1");
}

}  // namespace

TEST_CASE("port.counters: the captured mthca counters pass", "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto result = counters_of(check(tree, kMthcaConfig));
  CHECK(result.status == Status::kPass);
  CHECK(result.observed == "no errors");
}

TEST_CASE("port.counters: an error counter that is not a count fails, naming it and what it held",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  struct Case {
    const char* content;
    const char* observed;
  };
  const Case cases[] = {
      {"lots", "symbol_error: \"lots\" is not a count"},
      {"18446744073709551616",
       "symbol_error: \"18446744073709551616\" is more than "
       "2^64-1"},
      {"-1", "symbol_error: \"-1\" is not a count"},
      {"", "symbol_error: \"\" is not a count"},
      {"12 errors\x1b[31m", "symbol_error: \"12 errors?[31m\" is not a count"},
  };
  for (const auto& c : cases) {
    INFO(c.content);
    tree.write(kCounters + "/symbol_error", c.content);
    const auto result = counters_of(check(tree, kMthcaConfig));
    CHECK(result.status == Status::kFail);
    CHECK(result.observed == c.observed);
    CHECK_THAT(result.hint, Catch::Contains("an error counter that cannot be read cannot pass"));
  }
}

TEST_CASE("port.counters: an error counter that cannot be read as a file fails, saying what it is",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  const std::string file = kCounters + "/link_downed";
  SECTION("a directory") {
    tree.make_directory(file);
    CHECK(counters_of(check(tree, kMthcaConfig)).observed == "link_downed: a directory");
  }
  SECTION("a FIFO, which is never opened: the check does not wait for a writer") {
    tree.make_fifo(file);
    const auto start = std::chrono::steady_clock::now();
    const auto run = check(tree, kMthcaConfig);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(counters_of(run).observed == "link_downed: a FIFO");
    CHECK(counters_of(run).status == Status::kFail);
  }
  SECTION("a symlink to nothing") {
    tree.make_symlink(file, "../../../gone/link_downed");
    CHECK(counters_of(check(tree, kMthcaConfig)).observed == "link_downed: a symlink to nothing");
  }
  SECTION("a file whose read fails") {
    // Reading /proc/self/mem at offset 0 fails with EIO: the kernel refusing a read, as a
    // counter whose driver cannot answer does.
    if (!std::filesystem::exists("/proc/self/mem")) return;
    tree.make_symlink(file, "/proc/self/mem");
    CHECK(counters_of(check(tree, kMthcaConfig)).observed ==
          "link_downed: unreadable: Input/output error");
  }
  CHECK(counters_of(check(tree, kMthcaConfig)).status == Status::kFail);
}

TEST_CASE(
    "port.counters: a counters directory that cannot be listed fails, without the soft-RoCE "
    "hint",
    "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  SECTION("a file in its place") {
    tree.remove(kCounters);
    tree.write(kCounters, "0");
    const auto result = counters_of(check(tree, kMthcaConfig));
    CHECK(result.status == Status::kFail);
    CHECK(result.observed == "ports/1/counters/: not a directory (a file)");
  }
  SECTION("a symlink to nothing") {
    tree.make_symlink(kCounters, "nowhere");
    const auto result = counters_of(check(tree, kMthcaConfig));
    CHECK(result.status == Status::kFail);
    CHECK(result.observed == "ports/1/counters/: a symlink to nothing");
    CHECK(result.hint.find("soft RoCE") == std::string::npos);
  }
}

TEST_CASE("port.counters: only a port without a counters directory gets the no-counters skip",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.remove(kCounters);
  const auto result = counters_of(check(tree, kMthcaConfig));
  CHECK(result.status == Status::kSkip);
  CHECK_THAT(result.hint, Catch::Contains("soft RoCE"));

  tree.make_directory(kCounters);
  const auto empty = counters_of(check(tree, kMthcaConfig));
  CHECK(empty.status == Status::kWarn);
  CHECK(empty.observed == "ports/1/counters/ is empty");
}

TEST_CASE("port.counters: a device without a PMA and unjudged counters are warnings that say why",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  for (const auto& name : tree.root().list(kCounters))
    tree.write(kCounters + "/" + name, "N/A (no PMA)");
  const auto no_pma = counters_of(check(tree, kMthcaConfig));
  CHECK(no_pma.status == Status::kWarn);
  CHECK(no_pma.observed == "N/A (no PMA)");
  CHECK_THAT(no_pma.hint, Catch::Contains("no performance management agent"));

  FixtureTree traffic("mthca-ddr-2port");
  traffic.write(kCounters + "/port_xmit_wait", "plenty");
  const auto unjudged = counters_of(check(traffic, kMthcaConfig));
  CHECK(unjudged.status == Status::kWarn);
  CHECK(unjudged.observed == "port_xmit_wait: \"plenty\" is not a count");
  CHECK_THAT(unjudged.hint, Catch::Contains("without a limit"));
  // A limit makes it judged, and then it fails.
  const auto& judged =
      counters_of(check(traffic, std::string(kMthcaConfig) + "[limits]\nport_xmit_wait = 1000\n"));
  CHECK(judged.status == Status::kFail);
}

TEST_CASE("port.counters: an over-limit counter and an unreadable one both show",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kCounters + "/symbol_error", "4711");
  tree.write(kCounters + "/link_downed", "many");
  const auto result = counters_of(check(tree, kMthcaConfig));
  CHECK(result.status == Status::kFail);
  CHECK(result.observed == "symbol_error 4711 > 10, link_downed: \"many\" is not a count");
  CHECK_THAT(result.hint, Catch::Contains("cable"));
  CHECK_THAT(result.hint, Catch::Contains("cannot be read cannot pass"));
}

TEST_CASE(
    "port.counters: a counter stopped at its maximum fails under any limit, as the fabric "
    "check says of the same port",
    "[checks][sysfs]") {
  // symbol_error is 16 bits in PortCounters, which sysfs reads: at 65535 it stopped counting, so
  // however many errors there were is not known. The node check passed this (65535 <= 100000)
  // while ibkit fabric failed the same port.
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kCounters + "/symbol_error", "65535");
  const auto node =
      counters_of(check(tree, std::string(kMthcaConfig) + "\n[limits]\nsymbol_error = 100000\n"));
  CHECK(node.status == Status::kFail);
  CHECK(node.observed == "symbol_error 65535 <= 100000 (stopped counting at its maximum)");
  CHECK_THAT(node.hint, Catch::StartsWith("errors on the wire: reseat or replace the cable"));

  Subnet fabric;
  fabric.nodes.push_back({0xb000, SubnetNodeType::kChannelAdapter, "node HCA-1", {}, {}});
  SubnetPort port;
  port.number = 1;
  port.counters["symbol_error"] = 65535;
  fabric.nodes[0].ports.push_back(port);
  CounterLimits limits = default_counter_limits();
  limits["symbol_error"] = 100000;
  const auto fabric_results = check_port_errors(fabric, limits);
  REQUIRE_FALSE(fabric_results.empty());
  CHECK(fabric_results[0].status == Status::kFail);
  CHECK(fabric_results[0].observed == node.observed);
  CHECK_THAT(fabric_results[0].hint,
             Catch::StartsWith("errors on the wire: reseat or replace the cable"));
}

TEST_CASE("sysfs: read_attribute names what stands where a file should be", "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  const SysfsRoot root = tree.root();
  CHECK(*root.read_attribute(kCounters + "/symbol_error") == "0");
  CHECK(root.read_attribute(kCounters + "/nothing").error().message == "absent");
  CHECK(root.read_attribute(kCounters).error().message == "a directory");
  tree.write("big", std::string(70000, 'x'));
  CHECK(root.read_attribute("big").error().message == "larger than 64 KiB");
  tree.write("nul", std::string("1\0"
                                "2",
                                3));
  CHECK(root.read_attribute("nul").error().message == "not text (a NUL byte)");
  CHECK_FALSE(root.read("nul"));
  CHECK(root.list_entries(kCounters + "/symbol_error").error().message ==
        "not a directory (a file)");
  CHECK(root.list_entries("nowhere").error().message == "absent");
  CHECK_FALSE(root.present("nowhere"));
}
