// Readiness checks on the Azure HBv3 fixture (seed 004), the Soft-RoCE lab node, and on
// fixture trees with garbage where sysfs values should be.
#include <algorithm>

#include <catch2/catch.hpp>

#include "fixture_tree.hpp"
#include "sysfs/hca.hpp"

using namespace ibkit;
using namespace ibkit::test;
using ibkit::test::check;

namespace {

constexpr const char* kAzureConfig = R"(
[expect]
link_layer = "InfiniBand"
min_rate_gbps = 200
)";

// kAzureConfig saying the platform too. Built by append, not operator+: GCC 12 at -O2 reports
// a false out-of-bounds copy (-Warray-bounds) for std::string(kAzureConfig) + "...".
std::string azure_platform_config() {
  std::string config = kAzureConfig;
  config.append("platform = \"azure\"\n");
  return config;
}

}  // namespace

TEST_CASE("Azure HBv3, seed 004: the InfiniBand VF is the fabric, the Ethernet VF is not",
          "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  auto run = check(tree, kAzureConfig);
  for (const auto& result : run.results) {
    INFO(result.id << " " << result.subject << ": " << result.observed << " -- " << result.hint);
    CHECK(result.status != Status::kFail);
  }
  CHECK(find_result(run, "port.state", "mlx5_ib0/1").status == Status::kPass);
  CHECK(find_result(run, "port.rate", "mlx5_ib0/1").observed ==
        "200 Gb/sec (4X HDR) = 200 Gb/s data");
  CHECK(find_result(run, "port.lid", "mlx5_ib0/1").observed == "LID 958, SM LID 549");
  CHECK(find_result(run, "port.link_layer", "mlx5_an0/1").status == Status::kSkip);
  CHECK(find_result(run, "fabric.ports", "").observed == "1 Active of 1 InfiniBand port(s)");
  CHECK(find_result(run, "cpu.governor", "cpus").status == Status::kSkip);
  CHECK(find_result(run, "pcie.link", "mlx5_ib0").status == Status::kSkip);
  CHECK(count_results(run, "port.state", Status::kFail) == 0);
}

TEST_CASE("Azure: the HCA is found by what it is, whatever it is called", "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  auto run = check(tree, R"([expect]
link_layer = "InfiniBand"
ports = "all"
)");
  // Only the InfiniBand port is on the fabric, so no port of the Ethernet VF is required.
  for (const auto& result : run.results) {
    if (result.id == "port.state") CHECK(result.subject.rfind("mlx5_ib0/", 0) == 0);
  }
}

TEST_CASE("Azure: a port Initializing with SM LID 0 fails with the SM hint", "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/state", "2: INIT");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/sm_lid", "0x0");
  auto run = check(tree, kAzureConfig);
  const auto& state = find_result(run, "port.state", "mlx5_ib0/1");
  CHECK(state.status == Status::kFail);
  CHECK_THAT(state.hint, Catch::Contains("SM LID 0"));
  CHECK(find_result(run, "fabric.ports", "").status == Status::kFail);
}

TEST_CASE("Azure: a port the fabric has not activated never points at opensm", "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/state", "2: INIT");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/sm_lid", "0x0");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/lid", "0x0");
  const std::string azure = azure_platform_config();
  auto run = check(tree, azure);
  const auto& state = find_result(run, "port.state", "mlx5_ib0/1");
  CHECK(state.status == Status::kFail);
  CHECK_THAT(state.hint, Catch::Contains("Azure fabric's subnet manager"));
  CHECK_THAT(state.hint, Catch::Contains("redeploy"));
  CHECK_THAT(state.hint, !Catch::Contains("systemctl enable --now opensm"));
  CHECK_THAT(state.hint, !Catch::Contains("run opensm on"));
  // Without the platform the same port gets the homelab advice.
  auto generic = check(tree, kAzureConfig);
  CHECK_THAT(find_result(generic, "port.state", "mlx5_ib0/1").hint, Catch::Contains("run opensm"));
}

TEST_CASE("Azure: no link, a LID missing, a slow port and no ib0 address get Azure's causes",
          "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  const std::string azure = azure_platform_config();
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/rate", "100 Gb/sec (4X EDR)");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/lid", "0x0");
  auto slow = check(tree, azure);
  CHECK_THAT(find_result(slow, "port.rate", "mlx5_ib0/1").hint,
             Catch::Contains("below the VM size's rate"));
  const auto& lid = find_result(slow, "port.lid", "mlx5_ib0/1");
  CHECK(lid.status == Status::kFail);
  CHECK_THAT(lid.hint, !Catch::Contains("run opensm on"));
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/state", "1: DOWN");
  tree.write("sys/class/infiniband/mlx5_ib0/ports/1/phys_state", "2: Polling");
  auto down = check(tree, azure);
  const auto& state = find_result(down, "port.state", "mlx5_ib0/1");
  CHECK_THAT(state.hint, Catch::Contains("no working link"));
  CHECK_THAT(state.hint, !Catch::Contains("cable"));

  FixtureTree no_address("azure-hbv3-cx6vf");
  no_address.write("ip-addr.txt", "");
  auto run = check(no_address, azure + "ipoib = true\n");
  const auto& address = find_result(run, "ipoib.address", "mlx5_ib0/1");
  CHECK(address.status == Status::kFail);
  CHECK_THAT(address.hint, Catch::Contains("OS.EnableRDMA=y"));
}

TEST_CASE("Azure ND: fewer Active rails than port_count fails", "[checks][sysfs]") {
  FixtureTree tree("azure-hbv3-cx6vf");
  auto run = check(tree, R"([expect]
link_layer = "InfiniBand"
port_count = 8
)");
  const auto& fabric = find_result(run, "fabric.ports", "");
  CHECK(fabric.status == Status::kFail);
  CHECK(fabric.expected == "at least 8 Active");
}

TEST_CASE("a VPI port running the wrong link layer is named", "[checks][sysfs]") {
  FixtureTree tree("qlogic-qdr");
  auto run = check(tree, "[expect]\nlink_layer = \"Ethernet\"\n");
  const auto& fabric = find_result(run, "fabric.ports", "");
  CHECK(fabric.status == Status::kFail);
  CHECK_THAT(fabric.hint, Catch::Contains("LINK_TYPE_P1"));
}

TEST_CASE("Soft-RoCE lab node: Ethernet link layer, no IPoIB, Debian's 8 MiB memlock fails",
          "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  auto run = check(tree, R"([expect]
link_layer = "Ethernet"
modules = ["rdma_rxe", "ib_uverbs", "ib_umad"]
)");
  CHECK(find_result(run, "port.state", "rxe0/1").status == Status::kPass);
  CHECK(find_result(run, "fabric.ports", "").status == Status::kPass);
  CHECK(find_result(run, "port.counters", "rxe0/1").status == Status::kSkip);
  CHECK(count_results(run, "ipoib.interface", Status::kPass) +
            count_results(run, "ipoib.interface", Status::kFail) ==
        0);
  CHECK(count_results(run, "port.lid", Status::kFail) == 0);
  CHECK(find_result(run, "module.loaded", "rdma_rxe").status == Status::kPass);
  const auto& memlock = find_result(run, "memlock", "process");
  CHECK(memlock.status == Status::kFail);
  CHECK(memlock.observed == "soft 8192 KiB, hard 8192 KiB");
  CHECK(any_failed(run.results));
}

TEST_CASE("Soft-RoCE: the RoCE port's netdev comes from the GID table", "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  auto hcas = scan_hcas(tree.root());
  REQUIRE(hcas.size() == 1);
  CHECK(hcas[0].name == "rxe0");
  CHECK_FALSE(hcas[0].pci);
  CHECK(hcas[0].parent_netdev == "ens4");
  REQUIRE(hcas[0].ports.size() == 1);
  CHECK(hcas[0].ports[0].netdevs == std::vector<std::string>{"ens4"});
  CHECK(hcas[0].ports[0].netdev_state == "up");
  CHECK(hcas[0].ports[0].is_ethernet());
}

TEST_CASE("Soft-RoCE: a fabric link lost or set down fails with the netdev and the right fix",
          "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  tree.write("sys/class/infiniband/rxe0/ports/1/state", "1: DOWN");
  tree.write("sys/class/infiniband/rxe0/ports/1/phys_state", "3: Disabled");
  tree.write("sys/class/net/ens4/operstate", "down");
  tree.write("sys/class/net/ens4/flags", "0x1003");  // IFF_UP: the cable, not the admin
  auto pulled = check(tree, "[expect]\nlink_layer = \"Ethernet\"\n");
  const auto& state = find_result(pulled, "port.state", "rxe0/1");
  CHECK(state.status == Status::kFail);
  CHECK_THAT(state.hint, Catch::Contains("ens4 is up but has no carrier"));
  tree.write("sys/class/net/ens4/flags", "0x1002");
  auto set_down = check(tree, "[expect]\nlink_layer = \"Ethernet\"\n");
  CHECK_THAT(find_result(set_down, "port.state", "rxe0/1").hint,
             Catch::Contains("ip link set ens4 up"));
}

TEST_CASE("garbage and unreadable sysfs files give failed results, never a crash",
          "[checks][sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  const std::string port = "sys/class/infiniband/mthca0/ports/1/";
  tree.write(port + "state", std::string("\x01\x02\xff\0garbage", 11));
  tree.remove(port + "phys_state");
  tree.write(port + "phys_state/oops", "a directory where a file should be");
  tree.write(port + "rate", "fast");
  tree.write(port + "counters/symbol_error", "lots");
  tree.write("sys/class/net/ib0/mtu", "\xff\xfe");
  tree.write("proc/self/limits", "nonsense");
  tree.write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", std::string(70000, 'x'));
  auto run = check(tree, kAzureConfig);
  const auto& state = find_result(run, "port.state", "mthca0/1");
  CHECK(state.status == Status::kFail);
  CHECK_THAT(state.hint, Catch::Contains("cannot read the port's state files"));
  CHECK(find_result(run, "memlock", "process").status == Status::kSkip);
  auto hcas = scan_hcas(tree.root());
  REQUIRE_FALSE(hcas.empty());
  const auto& unreadable = hcas[0].ports[0].unreadable;
  CHECK(std::find(unreadable.begin(), unreadable.end(), "counters/symbol_error") !=
        unreadable.end());
  CHECK(std::find(unreadable.begin(), unreadable.end(), "rate") != unreadable.end());
}

TEST_CASE("devices: each fixture's HCAs, ports and netdevs as ibdev2netdev maps them",
          "[checks][sysfs]") {
  struct Case {
    const char* tree;
    const char* hca;
    int port;
    const char* netdev;
    const char* driver;
  };
  const Case cases[] = {
      {"mthca-ddr-2port", "mthca0", 1, "ib0", "ib_mthca"},
      {"mthca-ddr-2port", "mthca0", 2, "ib1", "ib_mthca"},
      {"cx4-qdr-gpu", "mlx5_0", 1, "ibp1s0", "mlx5_core"},
      {"azure-hbv3-cx6vf", "mlx5_ib0", 1, "ib0", "mlx5_core"},
      {"qlogic-qdr", "qib0", 1, "ibp1s0", "ib_qib"},
  };
  for (const auto& c : cases) {
    INFO(c.tree << " " << c.hca << "/" << c.port);
    FixtureTree tree(c.tree);
    auto hcas = scan_hcas(tree.root());
    auto hca =
        std::find_if(hcas.begin(), hcas.end(), [&](const Hca& h) { return h.name == c.hca; });
    REQUIRE(hca != hcas.end());
    REQUIRE(hca->pci);
    CHECK(hca->pci->driver == c.driver);
    REQUIRE(static_cast<int>(hca->ports.size()) >= c.port);
    CHECK(hca->ports[static_cast<std::size_t>(c.port - 1)].netdevs.front() == c.netdev);
  }
}
