#include "sysfs/netdev.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fixture_tree.hpp"
#include "sysfs/hca.hpp"

namespace ibkit {
namespace {

using test::FixtureTree;

// mthca0 is one PCI function with two ports: ib0 (dev_port 0) and ib1 (dev_port 1), both with
// dev_id 0x0.
const std::string kNet = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/net/";
const std::string kDevice = "sys/class/infiniband/mthca0";

std::vector<std::string> names(std::initializer_list<const char*> list) {
  return {list.begin(), list.end()};
}

}  // namespace

TEST_CASE("netdevs: each port of a two-port HCA gets its own IPoIB interface", "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  CHECK(netdevs_for_port(tree.root(), kDevice, 1, false) == names({"ib0"}));
  CHECK(netdevs_for_port(tree.root(), kDevice, 2, false) == names({"ib1"}));
}

TEST_CASE("netdevs: a dev_port or dev_id too large for a port is unreadable, not port 1",
          "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  // 2^32 became 0 in an int, hence port 1; 2^31 - 1 overflowed it (undefined behaviour).
  for (const char* huge : {"4294967296", "2147483647", "255", "18446744073709551615"}) {
    INFO(huge);
    tree.write(kNet + "ib1/dev_port", huge);
    tree.write(kNet + "ib1/dev_id", huge);
    CHECK(netdevs_for_port(tree.root(), kDevice, 1, false) == names({"ib0"}));
    CHECK(netdevs_for_port(tree.root(), kDevice, 2, false).empty());
  }
  // The last port InfiniBand numbers (255) is still a port.
  tree.write(kNet + "ib1/dev_port", "254");
  CHECK(netdevs_for_port(tree.root(), kDevice, 255, false) == names({"ib1"}));
}

TEST_CASE("netdevs: a dev_port out of range falls back to dev_id, as an unreadable one does",
          "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kNet + "ib1/dev_port", "4294967297");
  tree.write(kNet + "ib1/dev_id", "0x1");
  CHECK(netdevs_for_port(tree.root(), kDevice, 2, false) == names({"ib1"}));
}

TEST_CASE("netdevs: an interface type too large for an int is unknown, not IPoIB", "[sysfs]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kNet + "ib0/type", "4294967328");  // 2^32 + 32 became 32 (ARPHRD_INFINIBAND)
  auto netdev = read_netdev(tree.root(), "ib0");
  REQUIRE(netdev);
  CHECK(netdev->type == 0);
  tree.write(kNet + "ib0/type", "32");
  CHECK(read_netdev(tree.root(), "ib0")->type == kArphrdInfiniband);
}

}  // namespace ibkit

namespace ibkit {
namespace {

TEST_CASE("ports: a directory whose name is not the port's own number is not a second port",
          "[sysfs]") {
  test::FixtureTree tree("mthca-ddr-2port");
  for (const char* alias : {"01", "+1", "002"}) {
    tree.write(kDevice + "/ports/" + alias + "/state", "4: ACTIVE");
  }
  const auto hcas = scan_hcas(tree.root());
  REQUIRE(hcas.size() == 1);
  REQUIRE(hcas[0].ports.size() == 2);
  CHECK(hcas[0].ports[0].number == 1);
  CHECK(hcas[0].ports[1].number == 2);
}

}  // namespace
}  // namespace ibkit
