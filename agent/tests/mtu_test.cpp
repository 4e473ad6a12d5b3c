#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/config_loader.hpp"
#include "fixture_tree.hpp"
#include "report/devices_report.hpp"
#include "run_ibkit.hpp"
#include "sysfs/active_mtu.hpp"
#include "sysfs/hca.hpp"

namespace ibkit {
namespace {

using test::check;
using test::find_result;
using test::FixtureTree;

// Seed 004's ibv_devinfo, as the seed shows it (spaces, not tabs), with a second device.
constexpr const char* kDevinfo = R"(hca_id: mlx5_ib0
        transport:                      InfiniBand (0)
        fw_ver:                         20.31.1014
        phys_port_cnt:                  1
                port:   1
                        state:                  PORT_ACTIVE (4)
                        max_mtu:                4096 (5)
                        active_mtu:             4096 (5)
                        link_layer:             InfiniBand

hca_id: mlx5_an0
        phys_port_cnt:                  2
                port:   1
                        active_mtu:             1024 (3)
                port:   2
                        active_mtu:             1500 (9)
)";

}  // namespace

TEST_CASE("ibv_devinfo output gives each port's active MTU, and only real MTUs",
          "[sysfs][checks][report]") {
  const ActiveMtus mtus = parse_ibv_devinfo_mtus(kDevinfo);
  CHECK(mtus == ActiveMtus{{"mlx5_ib0/1", 4096}, {"mlx5_an0/1", 1024}});
  // A port line before any device, or an MTU before any port, names nothing.
  CHECK(parse_ibv_devinfo_mtus("port: 1\nactive_mtu: 4096 (5)\nhca_id: x\nactive_mtu: 2048\n")
            .empty());
}

TEST_CASE("[expect] active_mtu takes an RDMA MTU, and names the choices otherwise",
          "[sysfs][checks][report]") {
  auto config = parse_config("[expect]\nactive_mtu = 4096\n", "mtu.toml");
  REQUIRE(config.ok());
  CHECK(config->expect.active_mtu == 4096);
  CHECK_FALSE(parse_config("", "empty.toml")->expect.active_mtu.has_value());
  auto wrong = parse_config("[expect]\nactive_mtu = 1500\n", "mtu.toml");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message ==
        "mtu.toml:2:14: expect.active_mtu is 1500; write one of 256, 512, 1024, 2048, 4096 "
        "(bytes, as ibv_devinfo's active_mtu)");
  auto text = parse_config("[expect]\nactive_mtu = \"4096\"\n", "mtu.toml");
  REQUIRE_FALSE(text.ok());
  CHECK_THAT(text.error().message, Catch::Contains("expect.active_mtu is a string; write one of"));
}

TEST_CASE("port.mtu: the Active fabric ports run the expected MTU, RoCE and InfiniBand",
          "[sysfs][checks][report]") {
  FixtureTree lab("rxe-lab");
  const auto same = check(lab, "[expect]\nactive_mtu = 1024\n");
  CHECK(find_result(same, "port.mtu", "rxe0/1").status == Status::kPass);
  CHECK(find_result(same, "port.mtu", "rxe0/1").observed == "1024");

  const auto other = check(lab, "[expect]\nactive_mtu = 4096\n");
  const auto& roce = find_result(other, "port.mtu", "rxe0/1");
  CHECK(roce.status == Status::kFail);
  CHECK(roce.observed == "1024");
  CHECK(roce.expected == "4096");
  CHECK_THAT(roce.hint, Catch::Contains("ip link set ens4 mtu"));
  CHECK(any_failed(other.results));

  FixtureTree columbia("cx4-qdr-gpu");
  CHECK(find_result(check(columbia, "[expect]\nactive_mtu = 4096\n"), "port.mtu", "mlx5_0/1")
            .status == Status::kPass);
  // A named run: find_result returns a reference into it.
  const auto smaller = check(columbia, "[expect]\nactive_mtu = 2048\n");
  const auto& ib = find_result(smaller, "port.mtu", "mlx5_0/1");
  CHECK(ib.status == Status::kFail);
  CHECK_THAT(ib.hint, Catch::Contains("subnet manager"));
}

TEST_CASE("port.mtu is skipped without an expectation, and an unread MTU never passes",
          "[sysfs][checks][report]") {
  FixtureTree lab("rxe-lab");
  const auto unexpected = check(lab, "");
  const auto& free = find_result(unexpected, "port.mtu", "rxe0/1");
  CHECK(free.status == Status::kSkip);
  CHECK(free.observed == "1024");
  CHECK_THAT(free.hint, Catch::Contains("[expect].active_mtu"));

  lab.remove("ibv_devinfo.txt");
  const auto without_devinfo = check(lab, "[expect]\nactive_mtu = 1024\n");
  const auto& unread = find_result(without_devinfo, "port.mtu", "rxe0");
  CHECK(unread.status == Status::kFail);
  CHECK(unread.observed == "unreadable");
  CHECK(find_result(check(lab, ""), "port.mtu", "rxe0/1").status == Status::kSkip);
}

TEST_CASE("ibkit devices shows each port's active MTU, ? where it is not known",
          "[sysfs][checks][report]") {
  FixtureTree lab("rxe-lab");
  auto text = test::run_ibkit("devices --root " + lab.path().string());
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("Ethernet  MTU 1024"));
  auto json = test::run_ibkit("devices --format json --root " + lab.path().string());
  REQUIRE(json.exit_code == 0);
  CHECK(nlohmann::json::parse(json.out)["devices"][0]["ports"][0]["active_mtu"] == 1024);

  FixtureTree mthca("mthca-ddr-2port");  // seed 000 shows no MTU
  auto unknown = test::run_ibkit("devices --format json --root " + mthca.path().string());
  REQUIRE(unknown.exit_code == 0);
  CHECK(nlohmann::json::parse(unknown.out)["devices"][0]["ports"][0]["active_mtu"].is_null());
  CHECK_THAT(test::run_ibkit("devices --root " + mthca.path().string()).out,
             Catch::Contains("MTU ?"));
}

}  // namespace ibkit
