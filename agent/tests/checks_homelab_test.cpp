// Readiness checks on the home-lab fixtures (seeds 000, 001, 002) and their broken variants.
#include <filesystem>

#include <catch2/catch.hpp>

#include "fixture_tree.hpp"

using namespace ibkit;
using namespace ibkit::test;
using ibkit::test::check;

namespace {

constexpr const char* kMthcaConfig = R"(
[expect]
link_layer = "InfiniBand"
min_rate_gbps = 16
ports = ["mthca0/1"]
)";

constexpr const char* kQdrConfig = R"(
[expect]
link_layer = "InfiniBand"
min_rate_gbps = 32
)";

void require_all_pass(const CheckRun& run) {
  for (const auto& result : run.results) {
    INFO(result.id << " " << result.subject << ": " << result.observed << " -- " << result.hint);
    CHECK(result.status != Status::kFail);
  }
}

}  // namespace

TEST_CASE("mthca, seed 000: port 2 Down/Polling fails by default and says: no cable",
          "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  auto run = check(tree, "");
  CHECK(find_result(run, "port.state", "mthca0/1").status == Status::kPass);
  const auto& port2 = find_result(run, "port.state", "mthca0/2");
  CHECK(port2.status == Status::kFail);
  CHECK(port2.observed == "DOWN/Polling");
  CHECK_THAT(port2.hint, Catch::Contains("no cable"));
  CHECK(any_failed(run.results));
}

TEST_CASE("mthca, seed 000: with only port 1 required the node passes", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  auto run = check(tree, kMthcaConfig);
  require_all_pass(run);
  CHECK(find_result(run, "port.state", "mthca0/2").status == Status::kSkip);
  CHECK(find_result(run, "port.rate", "mthca0/1").observed == "20 Gb/sec (4X DDR) = 16 Gb/s data");
  CHECK(find_result(run, "ipoib.mode", "mthca0/1").observed == "connected");
  CHECK(find_result(run, "ipoib.mtu", "mthca0/1").status == Status::kPass);
  CHECK(find_result(run, "port.lid", "mthca0/1").status == Status::kPass);
  CHECK(find_result(run, "cpu.governor", "cpus").status == Status::kPass);
  CHECK(find_result(run, "memlock", "process").status == Status::kPass);
  CHECK(find_result(run, "pcie.link", "mthca0").status == Status::kPass);
}

TEST_CASE("mthca: a port stuck Initializing with SM LID 0 points at the subnet manager",
          "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  const std::string port = "sys/class/infiniband/mthca0/ports/1/";
  tree.write(port + "state", "2: INIT");
  tree.write(port + "sm_lid", "0x0");
  tree.write(port + "lid", "0x0");
  auto run = check(tree, kMthcaConfig);
  const auto& state = find_result(run, "port.state", "mthca0/1");
  CHECK(state.status == Status::kFail);
  CHECK(state.observed == "INIT/LinkUp");
  CHECK_THAT(state.hint, Catch::Contains("no subnet manager"));
  CHECK_THAT(state.hint, Catch::Contains("opensm"));
  CHECK(find_result(run, "port.lid", "mthca0/1").status == Status::kFail);
}

TEST_CASE("mthca: a port the SM armed but never activated", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/class/infiniband/mthca0/ports/1/state", "3: ARMED");
  auto run = check(tree, kMthcaConfig);
  CHECK_THAT(find_result(run, "port.state", "mthca0/1").hint, Catch::Contains("armed the port"));
}

TEST_CASE("mthca: a disabled port says how to enable it", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/class/infiniband/mthca0/ports/1/state", "1: DOWN");
  tree.write("sys/class/infiniband/mthca0/ports/1/phys_state", "3: Disabled");
  auto run = check(tree, kMthcaConfig);
  CHECK_THAT(find_result(run, "port.state", "mthca0/1").hint, Catch::Contains("ibportstate"));
}

TEST_CASE("mthca: IPoIB in datagram mode with MTU 2044 fails: this HCA wants connected",
          "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/class/net/ib0/mode", "datagram");
  tree.write("sys/class/net/ib0/mtu", "2044");
  auto run = check(tree, kMthcaConfig);
  const auto& mode = find_result(run, "ipoib.mode", "mthca0/1");
  CHECK(mode.status == Status::kFail);
  CHECK(mode.expected == "connected");
  CHECK_THAT(mode.hint, Catch::Contains("echo connected > /sys/class/net/ib0/mode"));
  CHECK(find_result(run, "ipoib.mtu", "mthca0/1").status == Status::kWarn);
}

TEST_CASE("mthca: an IPoIB interface that is down or has no address", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/class/net/ib0/operstate", "down");
  tree.write("ip-addr.txt", "1: lo    inet 127.0.0.1/8 scope host lo\n");
  auto run = check(tree, kMthcaConfig);
  CHECK(find_result(run, "ipoib.interface", "mthca0/1").status == Status::kFail);
  const auto& address = find_result(run, "ipoib.address", "mthca0/1");
  CHECK(address.status == Status::kFail);
  CHECK_THAT(address.hint, Catch::Contains("dev ib0"));
}

TEST_CASE("mthca: without ib_ipoib there is no IPoIB interface and the module check fails",
          "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.remove("sys/module/ib_ipoib");
  tree.remove("sys/class/net/ib0");
  auto run = check(tree, kMthcaConfig);
  CHECK(find_result(run, "module.loaded", "ib_ipoib").status == Status::kFail);
  CHECK_THAT(find_result(run, "module.loaded", "ib_ipoib").hint,
             Catch::Contains("/etc/modules-load.d/"));
  CHECK(find_result(run, "ipoib.interface", "mthca0/1").status == Status::kFail);
}

TEST_CASE("mthca: a missing module fails by name", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.remove("sys/module/ib_umad");
  auto run = check(tree, kMthcaConfig);
  const auto& module = find_result(run, "module.loaded", "ib_umad");
  CHECK(module.status == Status::kFail);
  CHECK_THAT(module.hint, Catch::Contains("modprobe ib_umad"));
  CHECK(find_result(run, "module.loaded", "ib_uverbs").status == Status::kPass);
}

TEST_CASE("mthca: memlock of 64 KiB fails with the limits.d fix", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  auto limits = tree.root().read("proc/self/limits");
  REQUIRE(limits);
  std::string text = *limits;
  auto row = text.find("Max locked memory");
  REQUIRE(row != std::string::npos);
  auto end = text.find('\n', row);
  text.replace(row, end == std::string::npos ? std::string::npos : end - row,
               "Max locked memory         65536                65536                bytes");
  tree.write("proc/self/limits", text);
  auto run = check(tree, kMthcaConfig);
  const auto& memlock = find_result(run, "memlock", "process");
  CHECK(memlock.status == Status::kFail);
  CHECK(memlock.observed == "soft 64 KiB, hard 64 KiB");
  CHECK_THAT(memlock.hint, Catch::Contains("root - memlock unlimited"));
}

TEST_CASE("mthca: governor powersave on some CPUs fails naming them", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave");
  tree.write("sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave");
  auto run = check(tree, kMthcaConfig);
  const auto& governor = find_result(run, "cpu.governor", "cpus");
  CHECK(governor.status == Status::kFail);
  CHECK_THAT(governor.observed, Catch::Contains("powersave on 2 of"));
  CHECK_THAT(governor.observed, Catch::Contains("cpu1, cpu2"));
  CHECK_THAT(governor.hint, Catch::Contains("cpupower frequency-set -g performance"));
}

TEST_CASE("mthca: rising error counters fail over their limits", "[checks][cli]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("sys/class/infiniband/mthca0/ports/1/counters/symbol_error", "4711");
  tree.write("sys/class/infiniband/mthca0/ports/1/counters/link_downed", "3");
  auto run = check(tree, kMthcaConfig);
  const auto& counters = find_result(run, "port.counters", "mthca0/1");
  CHECK(counters.status == Status::kFail);
  CHECK(counters.observed == "symbol_error 4711 > 10");
  CHECK_THAT(counters.hint, Catch::Contains("cable"));
  auto strict = check(tree, R"([expect]
ports = ["mthca0/1"]
[limits]
symbol_error = 5000
link_downed = 2
)");
  CHECK(find_result(strict, "port.counters", "mthca0/1").observed == "link_downed 3 > 2");
}

TEST_CASE("QLogic QDR, seed 001: healthy, connected mode at 32 Gb/s data", "[checks][cli]") {
  FixtureTree tree("qlogic-qdr");
  auto run = check(tree, kQdrConfig);
  require_all_pass(run);
  CHECK(find_result(run, "port.rate", "qib0/1").status == Status::kPass);
  CHECK(find_result(run, "ipoib.mode", "qib0/1").expected == "connected");
}

TEST_CASE("ConnectX-4 on a QDR switch, seed 002: enhanced IPoIB, GPUDirect registered",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  auto run = check(tree, kQdrConfig);
  require_all_pass(run);
  CHECK(find_result(run, "ipoib.mode", "mlx5_0/1").expected == "datagram");
  CHECK(find_result(run, "ipoib.mtu", "mlx5_0/1").status == Status::kPass);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kPass);
  CHECK_THAT(gpu.observed, Catch::Contains("peermem: nvidia_peermem registered as nv_mem"));
}

TEST_CASE("ConnectX-4: forcing connected mode on enhanced IPoIB fails", "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  tree.write("sys/class/net/ibp1s0/mode", "connected");
  auto run = check(tree, kQdrConfig);
  const auto& mode = find_result(run, "ipoib.mode", "mlx5_0/1");
  CHECK(mode.status == Status::kFail);
  CHECK_THAT(mode.hint, Catch::Contains("datagram only"));
}

TEST_CASE("ConnectX-4: a degraded width is below the expected rate", "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  tree.write("sys/class/infiniband/mlx5_0/ports/1/rate", "20 Gb/sec (2X QDR)");
  auto run = check(tree, kQdrConfig);
  const auto& rate = find_result(run, "port.rate", "mlx5_0/1");
  CHECK(rate.status == Status::kFail);
  CHECK(rate.observed == "20 Gb/sec (2X QDR) = 16 Gb/s data");
  CHECK_THAT(rate.hint, Catch::Contains("trained at 2X"));
}

TEST_CASE("ConnectX-4: nvidia_peermem loaded but not registered, or missing", "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  tree.remove("sys/kernel/mm/memory_peers/nv_mem");
  auto unregistered = check(tree, kQdrConfig);
  const auto& result = find_result(unregistered, "gpu.direct", "GPUDirect RDMA");
  CHECK(result.status == Status::kFail);
  CHECK_THAT(result.observed, Catch::Contains("loaded but not registered"));
  tree.remove("sys/module/nvidia_peermem");
  auto missing = check(tree, kQdrConfig);
  const auto& none = find_result(missing, "gpu.direct", "GPUDirect RDMA");
  CHECK(none.status == Status::kFail);
  CHECK_THAT(none.observed, Catch::Contains("no GPUDirect RDMA path"));
  // MOFED's ib_core (memory_peers exists) takes peer memory: loading the module is the fix.
  CHECK_THAT(none.hint, Catch::Contains("modprobe nvidia_peermem"));
}

TEST_CASE("GPUDirect: nvidia_peermem registered as nv_mem_nc is the peermem path",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  tree.remove("sys/kernel/mm/memory_peers/nv_mem");
  tree.write("sys/kernel/mm/memory_peers/nv_mem_nc/version", "550.54.15");
  auto run = check(tree, kQdrConfig);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kPass);
  CHECK_THAT(gpu.observed, Catch::Contains("registered as nv_mem_nc"));
}

TEST_CASE("GPUDirect by DMA-BUF, seed 002's node on Debian 12 with the open GPU modules",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu-dmabuf");
  auto run = check(tree, kQdrConfig);
  require_all_pass(run);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kPass);
  CHECK_THAT(gpu.observed, Catch::Contains("DMA-BUF: open NVIDIA modules 550.54.15"));
  CHECK_THAT(gpu.observed, Catch::Contains("no nvidia_peermem needed"));
  // required: DMA-BUF counts as GPUDirect RDMA; nvidia_peermem is not asked for.
  auto required = check(tree, "[expect]\nlink_layer = \"InfiniBand\"\ngpu_direct = \"required\"\n");
  CHECK(find_result(required, "gpu.direct", "GPUDirect RDMA").status == Status::kPass);
}

TEST_CASE("GPUDirect: no path on a distribution kernel with the proprietary modules",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu-dmabuf");
  tree.write("proc/driver/nvidia/version",
             "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC "
             "2024");
  auto run = check(tree, kQdrConfig);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kFail);
  CHECK_THAT(gpu.observed, Catch::Contains("the RDMA core has no peer-memory support"));
  CHECK_THAT(gpu.observed, Catch::Contains("proprietary NVIDIA modules 550.54.15"));
  // Loading nvidia_peermem cannot work here: the hint must not say so.
  CHECK_THAT(gpu.hint, !Catch::Contains("modprobe nvidia_peermem"));
  CHECK_THAT(gpu.hint, Catch::Contains("open GPU kernel modules"));
}

TEST_CASE("GPUDirect: the open modules on a kernel older than 5.12 have no DMA-BUF",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu-dmabuf");
  tree.write("proc/sys/kernel/osrelease", "5.10.0-28-amd64");
  auto run = check(tree, kQdrConfig);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kFail);
  CHECK_THAT(gpu.hint, Catch::Contains("kernel 5.10.0-28-amd64"));
  tree.remove("proc/driver/nvidia/version");
  auto no_driver = check(tree, kQdrConfig);
  CHECK_THAT(find_result(no_driver, "gpu.direct", "GPUDirect RDMA").hint,
             Catch::Contains("NVIDIA driver is not loaded"));
}

TEST_CASE("GPUDirect: AMD GPUs need no nvidia_peermem, and required there names the mismatch",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu-dmabuf");
  auto gpu_dir = tree.root().resolve("sys/bus/pci/devices/0000:03:00.0");
  REQUIRE(gpu_dir);
  tree.write(*gpu_dir + "/vendor", "0x1002");
  tree.write(*gpu_dir + "/device", "0x74a1");
  tree.write(*gpu_dir + "/class", "0x120000");
  tree.remove("proc/driver/nvidia");
  tree.remove("sys/module/nvidia");
  auto run = check(tree, kQdrConfig);
  const auto& gpu = find_result(run, "gpu.direct", "GPUDirect RDMA");
  CHECK(gpu.status == Status::kSkip);
  CHECK_THAT(gpu.observed, Catch::Contains("1 AMD GPU(s)"));
  auto required = check(tree, "[expect]\nlink_layer = \"InfiniBand\"\ngpu_direct = \"required\"\n");
  const auto& wrong = find_result(required, "gpu.direct", "GPUDirect RDMA");
  CHECK(wrong.status == Status::kFail);
  CHECK_THAT(wrong.hint, Catch::Contains("gpu_direct = \"off\""));
  auto off = check(tree, "[expect]\nlink_layer = \"InfiniBand\"\ngpu_direct = \"off\"\n");
  CHECK(count_results(off, "gpu.direct", Status::kFail) == 0);
  CHECK(count_results(off, "gpu.direct", Status::kSkip) == 0);
}

TEST_CASE("ConnectX-4: PCIe trained below max warns, and fails once it is the bottleneck",
          "[checks][cli]") {
  FixtureTree tree("cx4-qdr-gpu");
  auto pci = tree.root().resolve("sys/class/infiniband/mlx5_0/device");
  REQUIRE(pci);
  tree.write(*pci + "/current_link_width", "8");
  auto narrow = check(tree, kQdrConfig);
  CHECK(find_result(narrow, "pcie.link", "mlx5_0").status == Status::kWarn);
  tree.write(*pci + "/current_link_width", "2");
  auto starved = check(tree, kQdrConfig);
  const auto& link = find_result(starved, "pcie.link", "mlx5_0");
  CHECK(link.status == Status::kFail);
  CHECK_THAT(link.hint, Catch::Contains("less than the ports"));
}

TEST_CASE("an HCA whose driver has no known IPoIB mode is not guessed at", "[checks][cli]") {
  FixtureTree tree("qlogic-qdr");
  auto pci = tree.root().resolve("sys/class/infiniband/qib0/device");
  REQUIRE(pci);
  tree.remove(*pci + "/driver");
  tree.write("sys/bus/pci/drivers/hfi1/.keep", "");
  std::filesystem::create_directory_symlink("../../../bus/pci/drivers/hfi1",
                                            tree.path() / *pci / "driver");
  auto run = check(tree, kQdrConfig);
  const auto& mode = find_result(run, "ipoib.mode", "qib0/1");
  CHECK(mode.status == Status::kSkip);
  CHECK_THAT(mode.hint, Catch::Contains("set [expect].ipoib_mode"));
}
