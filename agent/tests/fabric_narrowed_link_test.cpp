// fabric.link's warning for a link an end's enabled set holds below what both ends support, on
// a two-level fat tree at 4X QDR: spines 0-1 (nodes 0-1, LIDs 5-6), leaf0 (node 2, LID 7: hosts
// h1, h2 on ports 1-2, spine0 on port 3, spine1 on port 4) and leaf1 (node 5, LID 8).
#include <catch2/catch.hpp>

#include "fabric/fabric_checks.hpp"
#include "fabric/link_training.hpp"
#include "fabric/narrowed_link.hpp"
#include "fat_tree.hpp"
#include "model/check_report.hpp"
#include "report/check_json.hpp"
#include "report/check_junit.hpp"
#include "report/check_text.hpp"

using namespace ibkit;

namespace {

constexpr unsigned k1X = 1, k4X = 2, k2X = 16;
constexpr unsigned kSDR = 1, kDDR = 2, kQDR = 4;
constexpr unsigned kFDR = 1, kEDR = 2, kHDR = 4;

constexpr std::size_t kSpine0 = 0, kLeaf0 = 2, kHost1 = 3;
const std::string kSpineLink =
    "spine0 (0x0000000000010000) port 1 <-> leaf0 (0x0000000000010002) port 3";

// Every port supporting and enabling 1X or 4X and SDR to QDR, and trained to 4X QDR; h1 runs
// the MASTER SM.
Subnet qdr_fat_tree() {
  Subnet fabric = test::two_level(2, 2);
  fabric.managers.push_back({{kHost1, 1}, 0x10003, 14, SubnetManagerState::kMaster});
  for (auto& node : fabric.nodes) {
    for (auto& port : node.ports) {
      port.width_supported = port.width_enabled = k1X | k4X;
      port.width_active = k4X;
      port.speed_supported = port.speed_enabled = kSDR | kDDR | kQDR;
      port.speed_active = kQDR;
    }
  }
  return fabric;
}

SubnetPort& port_at(Subnet& fabric, std::size_t node, int number) {
  for (auto& port : fabric.nodes[node].ports)
    if (port.number == number) return port;
  throw std::logic_error("no such port");
}

// The spine0-leaf0 cable trained to `width` at both ends.
void spine_link_at(Subnet& fabric, unsigned width) {
  port_at(fabric, kSpine0, 1).width_active = width;
  port_at(fabric, kLeaf0, 3).width_active = width;
}

std::vector<CheckResult> of_status(const CheckResults& results, Status status) {
  std::vector<CheckResult> found;
  for (const auto& result : results)
    if (result.status == status) found.push_back(result);
  return found;
}

}  // namespace

TEST_CASE(
    "fabric.link: a spine-leaf link at 1X because the spine's port enables only 1X warns, "
    "naming that port, and the fabric still passes",
    "[fabric]") {
  Subnet fabric = qdr_fat_tree();
  port_at(fabric, kSpine0, 1).width_enabled = k1X;
  spine_link_at(fabric, k1X);
  const auto results = check_links(fabric);
  CHECK(of_status(results, Status::kFail).empty());
  const auto warned = of_status(results, Status::kWarn);
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].id == "fabric.link");
  CHECK(warned[0].subject == kSpineLink);
  CHECK(warned[0].observed == "1X QDR (both ends support 4X QDR)");
  CHECK(warned[0].expected == "ACTIVE at 4X QDR, as both ends support");
  CHECK(warned[0].hint ==
        "spine0 (0x0000000000010000) port 1 enables widths up to 1X of the 4X it supports: "
        "unless narrowed on purpose, enable the rest (ibportstate 5 1 width 3; a managed "
        "switch's own port configuration may have set it: change it there too), then retrain "
        "the link (ibportstate 5 1 reset)");
  CHECK(results.back().status == Status::kPass);
  CHECK(results.back().observed == "7 links ACTIVE at the best both ends have enabled");
  CHECK_FALSE(any_failed(check_subnet(fabric)));

  // Narrowed at the leaf's end instead: the leaf's port is named.
  Subnet at_leaf = qdr_fat_tree();
  port_at(at_leaf, kLeaf0, 3).width_enabled = k1X;
  spine_link_at(at_leaf, k1X);
  const auto leaf_warned = of_status(check_links(at_leaf), Status::kWarn);
  REQUIRE(leaf_warned.size() == 1);
  CHECK_THAT(leaf_warned[0].hint,
             Catch::StartsWith("leaf0 (0x0000000000010002) port 3 enables widths up to 1X of "
                               "the 4X it supports: "));
  CHECK_THAT(leaf_warned[0].hint, Catch::Contains("(ibportstate 7 3 width 3;"));
}

TEST_CASE(
    "fabric.link: a 1X link whose ends both enable 4X still fails as a lane down, "
    "not a warning",
    "[fabric]") {
  Subnet fabric = qdr_fat_tree();
  spine_link_at(fabric, k1X);
  const auto results = check_links(fabric);
  CHECK(of_status(results, Status::kWarn).empty());
  const auto failed = of_status(results, Status::kFail);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].subject == kSpineLink);
  CHECK(failed[0].observed == "1X QDR (both ends enabled for 4X QDR)");
  CHECK_THAT(failed[0].hint, Catch::StartsWith("a lane is down"));
}

TEST_CASE(
    "fabric.link: ends that each hold a link back are both named, ends narrowed alike "
    "warn of nothing",
    "[fabric]") {
  // The spine's port enables 1X or 2X, the leaf's 1X or 4X: they share only 1X. Either end
  // enabling all it supports would lift the link (to 4X, or to 2X); both doing so, to 4X.
  Subnet apart = qdr_fat_tree();
  for (std::size_t node : {kSpine0, kLeaf0}) {
    for (auto& port : apart.nodes[node].ports) port.width_supported = k1X | k2X | k4X;
  }
  port_at(apart, kSpine0, 1).width_enabled = k1X | k2X;
  spine_link_at(apart, k1X);
  const auto warned = of_status(check_links(apart), Status::kWarn);
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].observed == "1X QDR (both ends support 4X QDR)");
  CHECK(warned[0].hint ==
        "spine0 (0x0000000000010000) port 1 enables widths up to 2X of the 4X it supports; "
        "leaf0 (0x0000000000010002) port 3 enables widths up to 4X of the 4X it supports: "
        "unless narrowed on purpose, enable the rest (ibportstate 5 1 width 19; ibportstate 7 3 "
        "width 19; a managed switch's own port configuration may have set it: change it there "
        "too), then retrain the link (ibportstate 5 1 reset)");

  // Both ends enable only 1X: neither alone holds the link back, and PortInfo cannot tell this
  // from a fabric set so on purpose, or from ibsim's, whose every port claims 12X.
  Subnet alike = qdr_fat_tree();
  port_at(alike, kSpine0, 1).width_enabled = k1X;
  port_at(alike, kLeaf0, 3).width_enabled = k1X;
  spine_link_at(alike, k1X);
  const auto results = check_links(alike);
  CHECK(of_status(results, Status::kWarn).empty());
  CHECK(of_status(results, Status::kFail).empty());
}

TEST_CASE(
    "fabric.link: a speed held back by an end's enabled speeds warns too, base or "
    "extended, with the ibportstate speed or espeed that enables the rest",
    "[fabric]") {
  // h1 enables only SDR: its cable to leaf0 trains at SDR; the host's port is named, and the
  // link is retrained from the switch's end.
  Subnet sdr = qdr_fat_tree();
  port_at(sdr, kHost1, 1).speed_enabled = kSDR;
  port_at(sdr, kHost1, 1).speed_active = kSDR;
  port_at(sdr, kLeaf0, 1).speed_active = kSDR;
  const auto warned = of_status(check_links(sdr), Status::kWarn);
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].subject ==
        "leaf0 (0x0000000000010002) port 1 <-> h1 HCA-1 (0x0000000000010003) port 1");
  CHECK(warned[0].observed == "4X SDR (both ends support 4X QDR)");
  CHECK(warned[0].hint ==
        "h1 HCA-1 (0x0000000000010003) port 1 enables speeds up to SDR of the QDR it supports: "
        "unless narrowed on purpose, enable the rest (ibportstate 1 1 speed 7), then retrain "
        "the link (ibportstate 7 1 reset)");

  // An HDR fabric whose spine port enables extended speeds up to EDR, and its width up to 1X.
  Subnet hdr = qdr_fat_tree();
  for (auto& node : hdr.nodes) {
    for (auto& port : node.ports) {
      port.speed_ext_supported = port.speed_ext_enabled = kFDR | kEDR | kHDR;
      port.speed_ext_active = kHDR;
    }
  }
  SubnetPort& spine = port_at(hdr, kSpine0, 1);
  spine.speed_ext_enabled = kFDR | kEDR;
  spine.width_enabled = k1X;
  spine_link_at(hdr, k1X);
  spine.speed_ext_active = port_at(hdr, kLeaf0, 3).speed_ext_active = kEDR;
  const auto held = of_status(check_links(hdr), Status::kWarn);
  REQUIRE(held.size() == 1);
  CHECK(held[0].observed == "1X EDR (both ends support 4X HDR)");
  CHECK_THAT(held[0].hint,
             Catch::StartsWith("spine0 (0x0000000000010000) port 1 enables widths up to 1X and "
                               "speeds up to EDR of the 4X HDR it supports: unless narrowed on "
                               "purpose, enable the rest (ibportstate 5 1 width 3; ibportstate "
                               "5 1 espeed 7;"));
}

TEST_CASE(
    "fabric.link: two hosts cabled back to back, one enabling only SDR: the warning "
    "retrains the link on a host, as no switch end is there to reset",
    "[fabric]") {
  Subnet fabric;
  for (std::size_t h = 0; h < 2; ++h) {
    SubnetNode host{
        0xb000 + h, SubnetNodeType::kChannelAdapter, "h" + std::to_string(h + 1), {}, {}};
    SubnetPort port;
    port.number = 1;
    port.guid = 0xc000 + h;
    port.lid = static_cast<std::uint16_t>(h + 1);
    port.state = kPortStateActive;
    port.width_supported = port.width_enabled = port.width_active = k4X;
    port.speed_supported = kSDR | kDDR;
    port.speed_enabled = h == 0 ? kSDR : kSDR | kDDR;
    port.speed_active = kSDR;
    port.remote = SubnetPortRef{1 - h, 1};
    host.ports.push_back(port);
    fabric.nodes.push_back(host);
  }
  const auto warned = of_status(check_links(fabric), Status::kWarn);
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].observed == "4X SDR (both ends support 4X DDR)");
  CHECK(warned[0].hint ==
        "h1 (0x000000000000b000) port 1 enables speeds up to SDR of the DDR it supports: unless "
        "narrowed on purpose, enable the rest (ibportstate 1 1 speed 3), then retrain the link "
        "(on h1 (0x000000000000b000): ibportstate -D 0 1 reset)");
}

TEST_CASE(
    "fabric.link: --link-width or --link-speed replaces the warning for what it sets, "
    "as before",
    "[fabric]") {
  Subnet fabric = qdr_fat_tree();
  SubnetPort& spine = port_at(fabric, kSpine0, 1);
  spine.width_enabled = k1X;
  spine.speed_enabled = kSDR;
  spine_link_at(fabric, k1X);
  spine.speed_active = port_at(fabric, kLeaf0, 3).speed_active = kSDR;

  // 1X is what every link was asked for: the width passes; the speed, not asked about, warns.
  const auto one_x = check_links(fabric, {"1X", ""});
  const auto speed_warned = of_status(one_x, Status::kWarn);
  REQUIRE(speed_warned.size() == 1);
  CHECK(speed_warned[0].observed == "1X SDR (both ends support 1X QDR)");
  CHECK_THAT(speed_warned[0].hint, Catch::Contains("enables speeds up to SDR of the QDR"));

  // 4X and QDR asked for: the failure of today, naming the end that holds the link back.
  const auto both = check_links(fabric, {"4X", "QDR"});
  CHECK(of_status(both, Status::kWarn).empty());
  const auto failed = of_status(both, Status::kFail);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].observed == "1X SDR (expected 4X QDR)");
  CHECK_THAT(failed[0].hint,
             Catch::StartsWith("spine0 (0x0000000000010000) port 1 has its enabled widths or "
                               "speeds set below what they support"));
}

TEST_CASE(
    "fabric report: a narrowed link's warning is shown with its hint, and the verdict "
    "stays pass in text, JSON and JUnit",
    "[fabric][report]") {
  Subnet fabric = qdr_fat_tree();
  port_at(fabric, kSpine0, 1).width_enabled = k1X;
  spine_link_at(fabric, k1X);
  CheckReport report{"mgmt1", "2026-01-01T00:00:00Z", kFabricConfigPrefix + std::string("mlx5_0"),
                     check_subnet(fabric)};
  report.command = "fabric";
  const std::string text = render_check_text(report, false);
  CHECK_THAT(text, Catch::Contains("warn    fabric.link"));
  CHECK_THAT(text, Catch::Contains("-> spine0 (0x0000000000010000) port 1 enables widths up to "
                                   "1X of the 4X it supports"));
  CHECK_THAT(text, Catch::Contains("PASS: "));
  CHECK_THAT(text, Catch::Contains(" 0 failed, 1 warnings, "));
  const std::string json = render_check_json(report);
  CHECK_THAT(json, Catch::Contains(R"("verdict": "pass")"));
  CHECK_THAT(json, Catch::Contains(R"("status": "warn")"));
  const std::string junit = render_check_junit(report);
  CHECK_THAT(junit, Catch::Contains(R"(failures="0")"));
  CHECK_THAT(junit, Catch::Contains("<system-out>warning: observed: 1X QDR (both ends support "
                                    "4X QDR)"));
}

TEST_CASE(
    "link training: the ends whose enabled sets hold a link back, and what it reaches once "
    "they enable all they support",
    "[fabric]") {
  SubnetPort a;
  SubnetPort b;
  a.width_supported = b.width_supported = k1X | k4X;
  a.width_enabled = k1X;
  b.width_enabled = k1X | k4X;
  auto held = width_held_back_by(a, b);
  REQUIRE(held);
  CHECK(held->first);
  CHECK_FALSE(held->second);
  CHECK(held->reachable.name == "4X");
  CHECK(enabled_width(a)->name == "1X");
  CHECK(supported_width(a)->name == "4X");
  CHECK_FALSE(width_held_back_by(b, b));

  // ibsim's ports: every one claims 1X to 12X and SDR to QDR, and enables what its netfile says.
  SubnetPort sim;
  sim.width_supported = 31;
  sim.width_enabled = k1X | k4X;
  sim.speed_supported = kSDR | kDDR | kQDR;
  sim.speed_enabled = kSDR | kDDR;
  CHECK_FALSE(width_held_back_by(sim, sim));
  CHECK_FALSE(speed_held_back_by(sim, sim));
  SubnetPort narrowed = sim;
  narrowed.width_enabled = k1X;  // the netfile's w=1
  narrowed.speed_enabled = kSDR;
  held = width_held_back_by(sim, narrowed);
  REQUIRE(held);
  CHECK(held->second);
  CHECK(held->reachable.name == "4X");
  const auto slow = speed_held_back_by(narrowed, sim);
  REQUIRE(slow);
  CHECK(slow->first);
  CHECK(slow->reachable.name == "DDR");
  CHECK(supported_speed(sim)->name == "QDR");
  CHECK(enabled_speed(sim)->name == "DDR");
}
