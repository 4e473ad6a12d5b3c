#include <string>

#include <catch2/catch.hpp>

#include "fixture_tree.hpp"
#include "sysfs/hca.hpp"

namespace ibkit {
namespace {

const Port& scanned_port(const std::vector<Hca>& hcas, const std::string& device, int number) {
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      if (hca.name == device && port.number == number) return port;
    }
  }
  FAIL("no port " << device << "/" << number << " in the scan");
  throw;
}

}  // namespace

TEST_CASE("one port without netdevs: what scan_hcas reads of it but the GID table walk",
          "[sysfs]") {
  for (const auto& [fixture, device] :
       {std::pair{"rxe-lab", "rxe0"}, std::pair{"azure-hbv3-cx6vf", "mlx5_ib0"},
        std::pair{"azure-hbv3-cx6vf", "mlx5_an0"}, std::pair{"mthca-ddr-2port", "mthca0"}}) {
    INFO(fixture);
    test::FixtureTree tree(fixture);
    const auto hcas = scan_hcas(tree.root());
    const Port& full = scanned_port(hcas, device, 1);
    CHECK_FALSE(full.netdevs.empty());
    auto one = read_port_without_netdevs(tree.root(), device, 1);
    REQUIRE(one);
    CHECK(one->state == full.state);
    CHECK(one->phys_state == full.phys_state);
    CHECK(one->rate_text == full.rate_text);
    CHECK(one->counters == full.counters);
    CHECK(one->transport.values == full.transport.values);
    CHECK(one->netdevs.empty());
  }
}

TEST_CASE("one port without netdevs: a device or port that is not there is nullopt", "[sysfs]") {
  test::FixtureTree tree("rxe-lab");
  CHECK_FALSE(read_port_without_netdevs(tree.root(), "rxe1", 1));
  CHECK_FALSE(read_port_without_netdevs(tree.root(), "rxe0", 2));
  CHECK_FALSE(read_port_without_netdevs(tree.root(), "rxe0", 0));
  for (const char* path : {"", ".", "..", "../infiniband/rxe0", "rxe0/ports"}) {
    INFO(path);
    CHECK_FALSE(read_port_without_netdevs(tree.root(), path, 1));
  }
}

}  // namespace ibkit
