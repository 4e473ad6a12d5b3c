// ibkit fabric --state: the counters a run keeps, and fabric.counters judging what rose since.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "fabric/counter_rises.hpp"
#include "fabric/counter_state.hpp"
#include "fabric/port_error_check.hpp"
#include "schema/counter_state_json.hpp"
#include "scratch_path.hpp"
#include "util/time/utc_time.hpp"

using namespace ibkit;

namespace {

constexpr std::int64_t kEarlier = 1'795'000'000;  // 2026-11-18T11:06:40Z

// A switch (GUID 0xa0) whose port 1 is cabled to a host (GUID 0xb0) port 1, both counters read.
Subnet cabled_pair() {
  Subnet fabric;
  SubnetNode leaf{0xa0, SubnetNodeType::kSwitch, "leaf", {}, {}};
  SubnetNode host{0xb0, SubnetNodeType::kChannelAdapter, "h1 HCA-1", {}, {}};
  for (SubnetNode* node : {&leaf, &host}) {
    SubnetPort port;
    port.number = 1;
    port.lid = node == &leaf ? 1 : 2;
    port.state = kPortStateActive;
    port.counters = {{"symbol_error", 0}, {"link_downed", 0}, {"port_rcv_errors", 0}};
    node->ports.push_back(port);
  }
  leaf.ports[0].remote = SubnetPortRef{1, 1};
  host.ports[0].remote = SubnetPortRef{0, 1};
  fabric.nodes = {leaf, host};
  return fabric;
}

SubnetPort& leaf_port(Subnet& fabric) { return fabric.nodes[0].ports[0]; }
SubnetPort& host_port(Subnet& fabric) { return fabric.nodes[1].ports[0]; }

}  // namespace

TEST_CASE("fabric --state keeps each port's non-zero counters by node GUID and port", "[fabric]") {
  Subnet fabric = cabled_pair();
  leaf_port(fabric).counters["symbol_error"] = 7;
  const CounterSnapshot kept = fabric_counter_snapshot(fabric, kEarlier);
  CHECK(kept.host == kFabricStateHost);
  CHECK(kept.taken_at == kEarlier);
  REQUIRE(kept.ports.size() == 2);
  CHECK(kept.ports.at("0x00000000000000a0/1") ==
        std::map<std::string, std::uint64_t>{{"symbol_error", 7}});
  CHECK(kept.ports.at("0x00000000000000b0/1").empty());
  auto read = parse_counter_snapshot(render_counter_snapshot(kept));
  REQUIRE(read.ok());
  CHECK(read->ports == kept.ports);
  CHECK(read->host == kFabricStateHost);
}

TEST_CASE("fabric --state: each counter becomes its rise, and a cleared one rises from 0",
          "[fabric]") {
  Subnet before = cabled_pair();
  leaf_port(before).counters["symbol_error"] = 1200;
  leaf_port(before).counters["port_rcv_errors"] = 40;
  const CounterSnapshot kept = fabric_counter_snapshot(before, kEarlier);

  Subnet now = cabled_pair();
  leaf_port(now).counters["symbol_error"] = 1212;  // rose by 12
  leaf_port(now).counters["port_rcv_errors"] = 3;  // cleared in between, then counted 3
  host_port(now).counters["link_downed"] = 255;    // stopped counting: its rise is not known
  CHECK(subtract_previous_counters(now, kept) == 2);
  CHECK(leaf_port(now).counters.at("symbol_error") == 12);
  CHECK(leaf_port(now).counters.at("port_rcv_errors") == 3);
  CHECK(host_port(now).counters.at("link_downed") == 255);
  CHECK(leaf_port(now).counters_since == kEarlier);

  const auto results = check_port_errors(now, default_counter_limits());
  REQUIRE(results.size() == 2);  // both ports fail: no row counts the ports within limits
  CHECK(results[0].observed == "symbol_error +12 > 10");
  CHECK(results[0].expected == "within [limits], rises since " + utc_timestamp_of(kEarlier));
  CHECK(results[1].observed == "link_downed 255 > 10 (stopped counting at its maximum)");
}

TEST_CASE("fabric --state: a 64-bit counter past PortCounters' maximum still rises", "[fabric]") {
  // A link that went down 300 times over months: PortCounters' 8-bit link_downed stopped at 255
  // long ago; PortCountersExtended's counts on, so what rose since the last run is known.
  Subnet before = cabled_pair();
  host_port(before).counters_extended = true;
  host_port(before).counters["link_downed"] = 300;
  const CounterSnapshot kept = fabric_counter_snapshot(before, kEarlier);

  Subnet now = cabled_pair();
  host_port(now).counters_extended = true;
  host_port(now).counters["link_downed"] = 302;
  subtract_previous_counters(now, kept);
  CHECK(host_port(now).counters.at("link_downed") == 2);
  const auto passed = check_port_errors(now, default_counter_limits());
  REQUIRE(passed.size() == 1);
  CHECK(passed[0].status == Status::kPass);

  // The same port with a rise of exactly 255 fails on the rise, not as a counter that stopped.
  Subnet rose = cabled_pair();
  host_port(rose).counters_extended = true;
  host_port(rose).counters["link_downed"] = 555;
  subtract_previous_counters(rose, kept);
  const auto failed = check_port_errors(rose, default_counter_limits());
  REQUIRE_FALSE(failed.empty());
  CHECK(failed[0].observed == "link_downed +255 > 10");
}

TEST_CASE("fabric --state: errors counted before the last run pass, a port new since is whole",
          "[fabric]") {
  Subnet before = cabled_pair();
  before.nodes[1].ports.clear();  // the host was not cabled yet
  leaf_port(before).counters["symbol_error"] = 1200;
  const CounterSnapshot kept = fabric_counter_snapshot(before, kEarlier);

  Subnet now = cabled_pair();
  leaf_port(now).counters["symbol_error"] = 1200;
  host_port(now).counters["port_rcv_errors"] = 500;
  CHECK(subtract_previous_counters(now, kept) == 1);
  CHECK_FALSE(host_port(now).counters_since);
  const auto results = check_port_errors(now, default_counter_limits());
  REQUIRE(results.size() == 2);
  CHECK(results[0].subject ==
        "h1 HCA-1 (0x00000000000000b0) port 1 (link to leaf "
        "(0x00000000000000a0) port 1)");
  CHECK(results[0].observed == "port_rcv_errors 500 > 10");
  CHECK(results[0].expected == "within [limits]");
  CHECK(results[1].status == Status::kPass);
  CHECK(results[1].observed == "1 port within [limits]");
  CHECK(results[1].expected == "every linked port's error counters within [limits], rises since " +
                                   utc_timestamp_of(kEarlier) +
                                   " (1 port new since then: as read)");
}

TEST_CASE("fabric --state: a port that did not answer keeps its earlier counters for the next run",
          "[fabric]") {
  Subnet before = cabled_pair();
  leaf_port(before).counters["symbol_error"] = 1200;
  const CounterSnapshot kept = fabric_counter_snapshot(before, kEarlier);

  Subnet silent = cabled_pair();
  leaf_port(silent).counters.clear();
  leaf_port(silent).counters_unread = "no answer";
  CounterSnapshot now = fabric_counter_snapshot(silent, kEarlier + 60);
  CHECK(now.ports.count("0x00000000000000a0/1") == 0);
  carry_unread_ports(now, kept);
  REQUIRE(now.ports.count("0x00000000000000a0/1") == 1);
  CHECK(now.ports.at("0x00000000000000a0/1").at("symbol_error") == 1200);

  Subnet back = cabled_pair();
  leaf_port(back).counters["symbol_error"] = 1203;
  subtract_previous_counters(back, now);
  CHECK(leaf_port(back).counters.at("symbol_error") == 3);
}

TEST_CASE("fabric --state: a first run judges the counters as read, the next what rose since",
          "[fabric]") {
  const std::string state = ibkit::test::scratch_path("fabric-state.json").string();
  Subnet first = cabled_pair();
  leaf_port(first).counters["symbol_error"] = 7;
  {
    const FabricCounterState none = use_counter_state(state, 1, first);
    CHECK_FALSE(none.problem);  // no file yet: a first run, not a problem
    REQUIRE(none.turn.lock);
    CHECK(leaf_port(first).counters["symbol_error"] == 7);
    std::ofstream(state) << render_counter_snapshot(none.snapshot);
  }  // its turn ends here

  Subnet next = cabled_pair();
  leaf_port(next).counters["symbol_error"] = 9;
  {
    const FabricCounterState since = use_counter_state(state, 1, next);
    CHECK_FALSE(since.problem);
    CHECK(leaf_port(next).counters["symbol_error"] == 2);  // the rise, not the reading
  }
  std::ofstream(state) << "not a state file";
  Subnet damaged = cabled_pair();
  const FabricCounterState unusable = use_counter_state(state, 1, damaged);
  REQUIRE(unusable.problem);
  CHECK(unusable.problem->status == Status::kWarn);
  std::filesystem::remove(state);
}
