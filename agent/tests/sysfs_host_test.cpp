// What sysfs/host.hpp reads of the node outside its HCAs: modules, memlock, CPU governors, GPUs
// and GPUDirect's peer memory, on the home-lab fixture and after breaking it.
#include <catch2/catch.hpp>

#include "fixture_tree.hpp"
#include "sysfs/host.hpp"

using namespace ibkit;
using namespace ibkit::test;

TEST_CASE("host: modules by either spelling, memlock, governors, no GPU on the home lab",
          "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  const SysfsRoot root = tree.root();
  CHECK(module_present(root, "ib_uverbs"));
  CHECK(module_present(root, "ib-uverbs"));  // dashes and underscores are one to the kernel
  CHECK_FALSE(module_present(root, "nvidia_peermem"));
  const auto memlock = read_memlock(root);
  REQUIRE(memlock);
  CHECK_FALSE(memlock->soft_bytes);  // unlimited
  const auto governors = read_cpu_governors(root);
  REQUIRE(governors.size() == 4);
  CHECK(governors[0].cpu == "cpu0");
  CHECK(governors[0].governor == "performance");
  CHECK(nvidia_gpus(root).empty());
  CHECK(amd_gpus(root).empty());
  CHECK_FALSE(peer_memory_supported(root));
  CHECK_FALSE(peer_memory_client_registered(root, "nv_mem"));
}

TEST_CASE("host: a memlock row in bytes, none at all, and a registered peer-memory client",
          "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write("proc/self/limits",
             "Limit                     Soft Limit           Hard Limit           Units\n"
             "Max locked memory         65536                131072               bytes");
  tree.write("sys/kernel/mm/memory_peers/nv_mem/version", "1.0");
  const SysfsRoot root = tree.root();
  const auto memlock = read_memlock(root);
  REQUIRE(memlock);
  CHECK(memlock->soft_bytes == 65536u);
  CHECK(memlock->hard_bytes == 131072u);
  CHECK(peer_memory_supported(root));
  CHECK(peer_memory_client_registered(root, "nv_mem"));
  tree.write("proc/self/limits", "Limit Soft Hard Units\n");
  CHECK_FALSE(read_memlock(tree.root()));
}
