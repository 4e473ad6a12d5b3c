// The node-wide checks called one at a time on a fixture's context (checks/check_context.hpp):
// the CPU governor, memlock, the kernel modules and GPUDirect, and the HCA's PCIe link, each
// passing on the home-lab card and failing once the tree is broken the way a node breaks.
#include <catch2/catch.hpp>

#include "checks/check_context.hpp"
#include "checks/cpu_governor_check.hpp"
#include "checks/memlock_check.hpp"
#include "checks/module_checks.hpp"
#include "checks/pcie_check.hpp"
#include "fixture_tree.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

template <class Check>
CheckResults run_one(const FixtureTree& tree, Check check) {
  return run_one_check(tree, kMthcaPort1Config, check);
}

// The one result a check gave, by value: safe to take from a temporary.
CheckResult only(const CheckResults& results) {
  REQUIRE(results.size() == 1);
  return results.front();
}

}  // namespace

TEST_CASE("check context: the host, its HCAs and the ports the fabric check counts", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const SysfsRoot root = tree.root();
  const Config config = config_from(kMthcaPort1Config);
  const CheckContext context = gather_context(root, config);
  CHECK(context.hostname == "srv1");
  REQUIRE(context.hcas.size() == 1);
  CHECK(context.hcas[0].name == "mthca0");
  const auto ports = fabric_ports(context);
  REQUIRE(ports.size() == 2);
  CHECK(ports[0].required);        // mthca0/1 is in [expect].ports
  CHECK_FALSE(ports[1].required);  // mthca0/2 is not
}

TEST_CASE("cpu governor: performance everywhere passes, one CPU on powersave fails naming it",
          "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  CHECK(only(run_one(tree, check_cpu_governor)).status == Status::kPass);
  tree.write("sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave");
  const auto results = run_one(tree, check_cpu_governor);
  CHECK(only(results).status == Status::kFail);
  CHECK_THAT(only(results).observed,
             Catch::Contains("powersave on 1 of 4") && Catch::Contains("cpu3"));
}

TEST_CASE("memlock: unlimited passes, a limit fails, limits that cannot be read skip", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  CHECK(only(run_one(tree, check_memlock)).observed == "soft unlimited, hard unlimited");
  tree.write("proc/self/limits",
             "Limit                     Soft Limit           Hard Limit           Units\n"
             "Max locked memory         65536                unlimited            bytes");
  const auto limited = run_one(tree, check_memlock);
  CHECK(only(limited).status == Status::kFail);
  CHECK(only(limited).observed == "soft 64 KiB, hard unlimited");
  tree.write("proc/self/limits", "nonsense");
  CHECK(only(run_one(tree, check_memlock)).status == Status::kSkip);
}

TEST_CASE("modules: each expected module is a result, and an unloaded one fails", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  auto loaded = run_one(tree, check_modules);
  REQUIRE(loaded.size() == 3);
  for (const auto& result : loaded) CHECK(result.status == Status::kPass);
  tree.remove("sys/module/ib_umad");
  auto missing = run_one(tree, check_modules);
  REQUIRE(missing.size() == 3);
  CHECK(missing[1].subject == "ib_umad");
  CHECK(missing[1].status == Status::kFail);
  CHECK_THAT(missing[1].hint, Catch::Contains("modprobe ib_umad"));
}

TEST_CASE("GPUDirect: skipped on a node without an NVIDIA GPU", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto result = only(run_one(tree, check_gpu_direct));
  CHECK(result.status == Status::kSkip);
  CHECK(result.observed == "no NVIDIA GPU");
}

TEST_CASE("pcie: the link at its maximum passes, one trained down fails", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto full = only(run_one(tree, check_pcie));
  CHECK(full.status == Status::kPass);
  CHECK(full.observed == "2.5 GT/s PCIe x8");
  tree.write("sys/class/infiniband/mthca0/device/current_link_width", "4");
  // x4 at 2.5 GT/s carries 8 Gb/s, half what the DDR port's 16 Gb/s needs.
  const auto narrow = only(run_one(tree, check_pcie));
  CHECK(narrow.status == Status::kFail);
  CHECK_THAT(narrow.observed, Catch::Contains("x4"));
}
