// fabric.sm, fabric.duplicates and fabric.link on subnets built here: two leaf switches joined
// by two cables, two hosts under each, then one fault at a time.
#include "fabric/fabric_checks.hpp"

#include <catch2/catch.hpp>

#include "fabric/link_training.hpp"
#include "fabric/port_error_check.hpp"
#include "model/check_report.hpp"
#include "model/error_counters.hpp"
#include "report/check_text.hpp"

using namespace ibkit;

namespace {

constexpr unsigned k1X = 1, k4X = 2;
constexpr unsigned kQDR = 4, kSDR = 1;
constexpr unsigned kEDR = 2, kHDR = 4;

SubnetPort hdr_port(int number, std::uint64_t guid, std::uint16_t lid) {
  SubnetPort port;
  port.number = number;
  port.guid = guid;
  port.lid = lid;
  port.state = kPortStateActive;
  port.phys_state = kPhysStateLinkUp;
  port.width_supported = port.width_enabled = k1X | k4X;
  port.width_active = k4X;
  port.speed_supported = port.speed_enabled = kSDR | 2 | kQDR;
  port.speed_active = kQDR;
  port.speed_ext_supported = port.speed_ext_enabled = 1 | kEDR | kHDR;
  port.speed_ext_active = kHDR;
  return port;
}

void connect(Subnet& fabric, SubnetPortRef a, SubnetPortRef b) {
  auto find = [&](SubnetPortRef ref) -> SubnetPort& {
    for (auto& port : fabric.nodes[ref.node].ports)
      if (port.number == ref.port) return port;
    throw std::logic_error("no such port");
  };
  find(a).remote = b;
  find(b).remote = a;
}

// Nodes 0 and 1: switches leaf-a and leaf-b (LIDs 1, 2), ports 1-2 to hosts, 3-4 to each other.
// Nodes 2-5: hosts h1..h4 (LIDs 3-6), h1 and h2 under leaf-a. An SM runs on h1.
Subnet two_leaves() {
  Subnet fabric;
  for (int s = 0; s < 2; ++s) {
    SubnetNode leaf{0xa000 + static_cast<std::uint64_t>(s),
                    SubnetNodeType::kSwitch,
                    s == 0 ? "leaf-a" : "leaf-b",
                    {},
                    {}};
    for (int p = 1; p <= 4; ++p)
      leaf.ports.push_back(hdr_port(p, leaf.guid, static_cast<std::uint16_t>(1 + s)));
    fabric.nodes.push_back(leaf);
  }
  for (int h = 0; h < 4; ++h) {
    SubnetNode host{0xb000 + static_cast<std::uint64_t>(h),
                    SubnetNodeType::kChannelAdapter,
                    "h" + std::to_string(h + 1) + " HCA-1",
                    {},
                    {}};
    host.ports.push_back(
        hdr_port(1, 0xc000 + static_cast<std::uint64_t>(h), static_cast<std::uint16_t>(3 + h)));
    fabric.nodes.push_back(host);
  }
  connect(fabric, {2, 1}, {0, 1});
  connect(fabric, {3, 1}, {0, 2});
  connect(fabric, {4, 1}, {1, 1});
  connect(fabric, {5, 1}, {1, 2});
  connect(fabric, {0, 3}, {1, 3});
  connect(fabric, {0, 4}, {1, 4});
  fabric.nodes[2].ports[0].runs_subnet_manager = true;
  fabric.managers.push_back({{2, 1}, 0xc000, 14, SubnetManagerState::kMaster});
  return fabric;
}

SubnetPort& port_at(Subnet& fabric, std::size_t node, int port) {
  return fabric.nodes[node].ports[static_cast<std::size_t>(port - 1)];
}

std::vector<CheckResult> failures(const CheckResults& results) {
  std::vector<CheckResult> failed;
  for (const auto& result : results)
    if (result.status == Status::kFail) failed.push_back(result);
  return failed;
}

}  // namespace

TEST_CASE("fabric: a healthy subnet passes every check, counting its links", "[fabric]") {
  const auto results = check_subnet(two_leaves());
  CHECK(failures(results).empty());
  REQUIRE(results.size() == 4);
  CHECK(results[0].observed ==
        "MASTER h1 HCA-1 (0x000000000000b000) port 1 (SM GUID 0x000000000000c000, priority "
        "14); no other SM");
  CHECK(results[1].observed == "6 node GUIDs, 6 port GUIDs and 6 LIDs, each once");
  CHECK(results[2].observed == "6 links ACTIVE at the best both ends have enabled");
  CHECK(results[3].id == "fabric.counters");
  CHECK(results[3].status == Status::kSkip);  // no counters read: nothing judged, nothing passed
}

namespace {

// two_leaves() with every linked port's error counters read, all zero.
Subnet counted_two_leaves() {
  Subnet fabric = two_leaves();
  for (auto& node : fabric.nodes)
    for (auto& port : node.ports)
      for (const auto& counter : error_counters()) port.counters[counter.name] = 0;
  return fabric;
}

}  // namespace

TEST_CASE("fabric text report: a node description cannot rewrite the terminal",
          "[fabric][report]") {
  // Any node of the subnet sets its own NodeDescription. This one erases the line its row is
  // on, returns to its start and writes "pass" over the "fail".
  Subnet fabric = counted_two_leaves();
  fabric.nodes[3].description =
      "h2\x1b[2K\rpass \xc2\x9b"
      "2J\x07";
  port_at(fabric, 3, 1).counters["symbol_error"] = 1200;
  const CheckReport report{"mgmt1", "2026-11-23T10:00:00Z",
                           kFabricConfigPrefix + std::string("mlx5_0"), check_subnet(fabric)};
  REQUIRE(any_failed(report.results));
  const std::string plain = render_check_text(report, false);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find('\r') == std::string::npos);
  CHECK(plain.find('\x07') == std::string::npos);
  CHECK(plain.find("\xc2\x9b") == std::string::npos);
  // The subject is wider than its column: it wraps at the space after the description.
  CHECK_THAT(plain, Catch::Contains("h2\\x1b[2K\\rpass \\u009b2J\\x07") &&
                        Catch::Contains("(0x000000000000b001) port 1"));
  // In colour the only ESC sequences are the colours' own.
  const std::string coloured = render_check_text(report, true);
  CHECK(coloured.find("\x1b[2K") == std::string::npos);
  CHECK(coloured.find('\r') == std::string::npos);
}

TEST_CASE("fabric.counters: a port over [limits] fails naming the far end, switch ports included",
          "[fabric]") {
  Subnet fabric = counted_two_leaves();
  auto healthy = check_port_errors(fabric, default_counter_limits());
  REQUIRE(healthy.size() == 1);
  CHECK(healthy[0].status == Status::kPass);
  CHECK(healthy[0].observed == "12 ports within [limits]");

  port_at(fabric, 1, 3).counters["symbol_error"] = 1200;     // leaf-b's port to leaf-a
  port_at(fabric, 3, 1).counters["link_downed"] = 255;       // h2, saturated at 8 bits
  port_at(fabric, 4, 1).counters["port_xmit_discards"] = 7;  // h3, under its limit of 100
  auto results = check_port_errors(fabric, default_counter_limits());
  REQUIRE(results.size() == 3);
  CHECK(results[0].status == Status::kFail);
  CHECK(results[0].subject ==
        "leaf-b (0x000000000000a001) port 3 (link to leaf-a (0x000000000000a000) port 3)");
  CHECK(results[0].observed == "symbol_error 1200 > 10");
  CHECK_THAT(results[0].hint, Catch::StartsWith("errors on the wire: reseat or replace the cable "
                                                "to leaf-a (0x000000000000a000) port 3"));
  CHECK_THAT(results[0].hint, Catch::Contains("perfquery -R 2 3"));  // the switch's LID, the port
  CHECK(results[1].observed == "link_downed 255 > 10 (stopped counting at its maximum)");
  CHECK_THAT(results[1].hint, Catch::StartsWith("the link to leaf-a (0x000000000000a000) port 2 "
                                                "went down that often"));
  CHECK_THAT(results[1].hint, Catch::Contains("perfquery -R 4 1"));
  CHECK(results[2].status == Status::kPass);
  CHECK(results[2].observed ==
        "10 ports within [limits] (1 with errors under them: h3 HCA-1 (0x000000000000b002) port 1 "
        "port_xmit_discards=7)");

  // A counter stopped at its maximum fails under a limit above that maximum too.
  Subnet stuck = counted_two_leaves();
  port_at(stuck, 4, 1).counters["local_link_integrity_errors"] = 15;  // 4 bits
  CounterLimits high = default_counter_limits();
  high["local_link_integrity_errors"] = 20;
  auto stuck_results = check_port_errors(stuck, high);
  REQUIRE(failures(stuck_results).size() == 1);
  CHECK(failures(stuck_results)[0].observed ==
        "local_link_integrity_errors 15 <= 20 (stopped counting at its maximum)");
  // Packets marked bad upstream point at the links before this one, not at its cable.
  Subnet upstream = counted_two_leaves();
  port_at(upstream, 0, 1).counters["port_rcv_remote_physical_errors"] = 50;
  auto marked = failures(check_port_errors(upstream, default_counter_limits()));
  REQUIRE(marked.size() == 1);
  CHECK_THAT(marked[0].hint, Catch::StartsWith("packets that arrived already marked bad"));

  CounterLimits lenient = default_counter_limits();
  lenient["symbol_error"] = 2000;
  lenient.erase("link_downed");  // a counter without a limit is not judged
  CHECK(failures(check_port_errors(fabric, lenient)).empty());
}

TEST_CASE(
    "fabric.counters: ports whose counters were not read are one warning, the first five "
    "named",
    "[fabric]") {
  Subnet fabric = counted_two_leaves();
  for (std::size_t node = 0; node < 2; ++node) {
    for (auto& port : fabric.nodes[node].ports) {
      port.counters.clear();
      port.counters_unread = "no answer";
    }
  }
  port_at(fabric, 5, 1).counters.clear();  // not asked: not judged, not named
  auto results = check_port_errors(fabric, default_counter_limits());
  REQUIRE(results.size() == 2);
  CHECK(results[0].status == Status::kWarn);
  CHECK(results[0].observed ==
        "8 ports' counters not read: leaf-a (0x000000000000a000) port 1: no answer; leaf-a "
        "(0x000000000000a000) port 2: no answer; leaf-a (0x000000000000a000) port 3: no answer; "
        "leaf-a (0x000000000000a000) port 4: no answer; leaf-b (0x000000000000a001) port 1: no "
        "answer; and 3 more");
  CHECK(results[1].observed == "3 ports within [limits]");
  CHECK(error_counters().size() == 12);
  CHECK(counter_saturated("local_link_integrity_errors", 15, false));  // a 4-bit counter
  CHECK_FALSE(counter_saturated("symbol_error", 255, false));
  // PortCountersExtended's are 64 bits: PortCounters' maximum is a count like any other there.
  CHECK(counter_saturated("symbol_error", 65535, false));
  CHECK_FALSE(counter_saturated("symbol_error", 65535, true));
  CHECK(counter_saturated("link_downed", ~std::uint64_t{0}, true));
}

TEST_CASE("fabric.sm: none, or two MASTERs, fail naming every SM, and STANDBY ones are listed",
          "[fabric]") {
  Subnet fabric = two_leaves();
  fabric.managers.push_back({{4, 1}, 0xc002, 1, SubnetManagerState::kStandby});
  auto one = check_subnet_managers(fabric);
  CHECK(one.status == Status::kPass);
  CHECK_THAT(one.observed, Catch::EndsWith("; STANDBY h3 HCA-1 (0x000000000000b002) port 1 (SM "
                                           "GUID 0x000000000000c002, priority 1)"));
  fabric.managers[1].state = SubnetManagerState::kMaster;
  auto two = check_subnet_managers(fabric);
  CHECK(two.status == Status::kFail);
  CHECK_THAT(two.observed, Catch::StartsWith("2 MASTERs: h1 HCA-1"));
  CHECK_THAT(two.observed, Catch::Contains("; h3 HCA-1"));
  CHECK_THAT(two.hint, Catch::Contains("stop all but one"));
  fabric.managers.clear();
  auto none = check_subnet_managers(fabric);
  CHECK(none.status == Status::kFail);
  CHECK(none.observed == "no subnet manager answered");
  CHECK_THAT(none.hint, Catch::Contains("opensm_enabled on exactly one host"));
}

TEST_CASE("fabric.duplicates: a LID, a port GUID or a link that does not lead back is named",
          "[fabric]") {
  Subnet lid = two_leaves();
  port_at(lid, 5, 1).lid = 3;  // h4 answers with h1's LID
  auto same_lid = check_duplicates(lid);
  CHECK(same_lid.status == Status::kFail);
  CHECK(same_lid.observed ==
        "LID 3 at h1 HCA-1 (0x000000000000b000) port 1 and h4 HCA-1 (0x000000000000b003) port 1");

  Subnet guid = two_leaves();
  port_at(guid, 4, 1).guid = 0xc000;
  CHECK_THAT(check_duplicates(guid).observed, Catch::StartsWith("port GUID 0x000000000000c000 at "
                                                                "h1 HCA-1"));

  // Two hosts with one node GUID: discovery merges them, and leaf-b's port 2 leads to a port
  // that answers as leaf-a's.
  Subnet merged = two_leaves();
  port_at(merged, 1, 2).remote = SubnetPortRef{2, 1};
  auto asymmetric = check_duplicates(merged);
  CHECK(asymmetric.status == Status::kFail);
  CHECK_THAT(asymmetric.observed,
             Catch::Contains("a link that does not lead back: leaf-b (0x000000000000a001) port 2 "
                             "reaches h1 HCA-1 (0x000000000000b000) port 1"));
}

TEST_CASE(
    "fabric.duplicates: an ACTIVE port with nothing at its far end is named, as discovery "
    "leaves the second of two nodes with one GUID",
    "[fabric]") {
  Subnet fabric = two_leaves();
  port_at(fabric, 0, 2).remote.reset();  // leaf-a's cable to h2
  port_at(fabric, 3, 1).remote.reset();
  port_at(fabric, 3, 1).state = kPortStateDown;  // a port down with no far end is no finding
  const auto result = check_duplicates(fabric);
  CHECK(result.status == Status::kFail);
  CHECK(result.observed ==
        "leaf-a (0x000000000000a000) port 2 is ACTIVE but discovery found nothing at its far end");
  CHECK_THAT(result.hint, Catch::Contains("a node that did not answer"));
}

TEST_CASE("fabric.link: a link trained to 1X or to a lower speed fails, naming both ends",
          "[fabric]") {
  Subnet narrow = two_leaves();
  port_at(narrow, 0, 3).width_active = k1X;  // one inter-switch cable lost three lanes
  port_at(narrow, 1, 3).width_active = k1X;
  auto results = check_links(narrow);
  auto failed = failures(results);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].subject ==
        "leaf-a (0x000000000000a000) port 3 <-> leaf-b (0x000000000000a001) port 3");
  CHECK(failed[0].observed == "1X HDR (both ends enabled for 4X HDR)");
  CHECK_THAT(failed[0].hint, Catch::StartsWith("a lane is down"));
  CHECK(results.back().observed == "5 links ACTIVE at the best both ends have enabled");

  Subnet slow = two_leaves();
  for (auto* port : {&port_at(slow, 3, 1), &port_at(slow, 0, 2)}) port->speed_ext_active = kEDR;
  auto slow_failed = failures(check_links(slow));
  REQUIRE(slow_failed.size() == 1);
  CHECK(slow_failed[0].observed == "4X EDR (both ends enabled for 4X HDR)");
  CHECK_THAT(slow_failed[0].hint, Catch::StartsWith("the link trained below the speed"));

  // An end whose enabled speeds stop at EDR trains there: no fault of the link, but short of an
  // HDR fabric's expectation, and the end that holds it back is named.
  Subnet held = two_leaves();
  port_at(held, 3, 1).speed_ext_enabled = 1 | kEDR;
  for (auto* port : {&port_at(held, 3, 1), &port_at(held, 0, 2)}) port->speed_ext_active = kEDR;
  CHECK(failures(check_links(held)).empty());
  auto expected = check_links(held, {"4X", "HDR"});
  auto held_failed = failures(expected);
  REQUIRE(held_failed.size() == 1);
  CHECK(held_failed[0].observed == "4X EDR (expected 4X HDR)");
  CHECK(held_failed[0].hint ==
        "h2 HCA-1 (0x000000000000b001) port 1 has its enabled widths or speeds set below what "
        "they support: set them back (ibportstate) and retrain");
  CHECK(expected.back().observed ==
        "5 links ACTIVE at the best both ends have enabled and at least 4X HDR");

  // A QDR-only end makes QDR the best: not a fault.
  Subnet qdr = two_leaves();
  for (auto* port : {&port_at(qdr, 5, 1), &port_at(qdr, 1, 2)}) {
    port->speed_ext_active = 0;
  }
  port_at(qdr, 5, 1).speed_ext_supported = port_at(qdr, 5, 1).speed_ext_enabled = 0;
  CHECK(failures(check_links(qdr)).empty());
}

TEST_CASE("fabric.link: a link up but not ACTIVE fails, pointing at the subnet manager",
          "[fabric]") {
  Subnet fabric = two_leaves();
  fabric.managers.clear();
  for (auto& node : fabric.nodes)
    for (auto& port : node.ports) port.state = kPortStateInit;
  auto failed = failures(check_links(fabric));
  CHECK(failed.size() == 6);
  CHECK(failed[0].observed == "LinkUp but INIT / INIT");
  CHECK_THAT(failed[0].hint, Catch::Contains("fabric.sm"));
}

TEST_CASE("link training: widths and speeds rank by lanes and lane rate, from the enabled sets",
          "[fabric]") {
  SubnetPort a = hdr_port(1, 1, 1);
  SubnetPort b = hdr_port(1, 2, 2);
  CHECK(best_common_width(a, b)->name == "4X");
  CHECK(best_common_speed(a, b)->name == "HDR");
  b.width_enabled = k1X;
  CHECK(best_common_width(a, b)->name == "1X");
  b.speed_ext_enabled = 0;
  b.speed_ext_supported = 0;
  CHECK(best_common_speed(a, b)->name == "QDR");
  b.width_enabled = 0;  // none enabled reported: the supported set counts
  CHECK(best_common_width(a, b)->name == "4X");
  b.width_supported = 0;
  CHECK_FALSE(best_common_width(a, b));
  a.width_enabled = k1X;
  CHECK(width_held_back(a));
  CHECK_FALSE(speed_held_back(a));
  CHECK(width_named("12X")->rank == 12);
  CHECK(speed_named("NDR")->rank == 7);
  CHECK_FALSE(speed_named("hdr"));
  CHECK(width_names() == "1X, 2X, 4X, 8X or 12X");
  CHECK(speed_names() == "SDR, DDR, QDR, FDR, EDR, HDR, NDR or XDR");
}
