// The fabric record discovery's child hands to ibkit: what is written reads back the same, and
// a record that lies is refused naming its line; run_forked bounds the child that writes it.
#include "fabric/fabric_record.hpp"

#include <chrono>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "model/error_counters.hpp"
#include "util/process/child_process.hpp"

using namespace ibkit;

namespace {

Subnet small_fabric() {
  Subnet fabric;
  SubnetNode leaf{0xa000, SubnetNodeType::kSwitch, "MF0;leaf a:SX6036/U1", {}, {}};
  SubnetPort zero;
  zero.guid = 0xa000;
  zero.lid = 1;
  zero.runs_subnet_manager = true;
  leaf.ports.push_back(zero);
  SubnetPort one;
  one.number = 1;
  one.guid = 0xa000;
  one.lid = 1;
  one.state = kPortStateActive;
  one.phys_state = kPhysStateLinkUp;
  one.width_supported = 3;
  one.width_active = 2;
  one.speed_ext_supported = 7;
  one.speed_ext_active = 4;
  one.remote = SubnetPortRef{1, 1};
  SubnetPort counted = one;
  for (const auto& counter : error_counters()) counted.counters[counter.name] = 0;
  counted.counters["symbol_error"] = 3;
  counted.counters["link_downed"] = 255;
  leaf.ports.push_back(counted);
  SubnetNode host{0xb000, SubnetNodeType::kChannelAdapter, "", {}, {}};
  SubnetPort port = one;
  port.guid = 0xc000;
  port.lid = 2;
  port.remote = SubnetPortRef{0, 1};
  port.counters_unread = "no answer from the performance agent at LID 2 port 1";
  host.ports.push_back(port);
  fabric.nodes = {leaf, host};
  fabric.managers.push_back({{0, 0}, 0xa000, 15, SubnetManagerState::kMaster});
  fabric.discovered_from = SubnetPortRef{1, 1};
  return fabric;
}

}  // namespace

TEST_CASE("fabric record: what is written reads back the same", "[fabric]") {
  const Subnet fabric = small_fabric();
  auto read = read_fabric_record(record_fabric(fabric));
  REQUIRE(read);
  CHECK(record_fabric(*read) == record_fabric(fabric));
  CHECK(read->nodes[0].description == "MF0;leaf a:SX6036/U1");
  CHECK(read->nodes[0].type == SubnetNodeType::kSwitch);
  CHECK(read->nodes[1].ports[0].remote == SubnetPortRef{0, 1});
  CHECK(read->managers[0].state == SubnetManagerState::kMaster);
  CHECK(read->discovered_from == SubnetPortRef{1, 1});
  CHECK(read->nodes[0].ports[1].counters.at("link_downed") == 255);
  CHECK(read->nodes[0].ports[0].counters.empty());
  CHECK(read->nodes[1].ports[0].counters_unread ==
        "no answer from the performance agent at LID 2 port 1");
}

TEST_CASE("fabric record: PortCountersExtended's counters keep their 64 bits and their kind",
          "[fabric]") {
  Subnet fabric = small_fabric();
  SubnetPort& port = fabric.nodes[0].ports[1];
  port.counters_extended = true;
  port.counters["symbol_error"] = 0x1'0000'0000ULL;  // past PortCounters' 16 bits
  const std::string record = record_fabric(fabric);
  CHECK(record.find("\ncounters64 ") != std::string::npos);
  auto read = read_fabric_record(record);
  REQUIRE(read);
  CHECK(read->nodes[0].ports[1].counters_extended);
  CHECK(read->nodes[0].ports[1].counters.at("symbol_error") == 0x1'0000'0000ULL);
  CHECK_FALSE(read->nodes[1].ports[0].counters_extended);
  // The same value on a PortCounters line is out of range.
  std::string narrow = record;
  narrow.replace(narrow.find("\ncounters64 "), 12, "\ncounters ");
  REQUIRE_FALSE(read_fabric_record(narrow));
}

TEST_CASE("fabric record: a line out of range, or a far end that is not there, is refused",
          "[fabric]") {
  const std::string good = record_fabric(small_fabric());
  auto refused = [&](const std::string& from, const std::string& to) {
    std::string record = good;
    const auto at = record.find(from);
    REQUIRE(at != std::string::npos);
    record.replace(at, from.size(), to);
    auto read = read_fabric_record(record);
    REQUIRE_FALSE(read);
    return read.error().message;
  };
  CHECK(refused("ibkit-fabric 1", "ibkit-fabric 2") ==
        "the fabric record does not start with \"ibkit-fabric 1\"");
  CHECK(refused(" 1:1\n", " 9:1\n") == "fabric record: 9:1 names no port listed");
  CHECK(refused("node 40960 switch", "node 40960 hub") ==
        "fabric record line 2: a node needs a GUID, a type (ca, switch, router) and a hex name");
  CHECK(refused("port 1 40960 1 4", "port 1 40960 70000 4") ==
        "fabric record line 4: a port field is not a number in range");
  // Ports are found by number: a second port 0 (once an optional dereferenced empty when the
  // topology schedule followed the cable of the first; found by the topology fuzz target).
  CHECK(refused("port 1 40960 1 4", "port 0 40960 1 4") ==
        "fabric record line 4: port 0 listed twice in one node");
  CHECK(refused("sm 0:0 40960 15 3", "sm 0:0 40960 15 9") ==
        "fabric record line 9: an sm line is NODE:PORT GUID PRIORITY STATE");
  CHECK(refused("from 1:1", "into 1:1") ==
        "fabric record line 10: \"into\" is not node, forwarding, port, counters, counters64, "
        "uncounted, sm or from");
  const std::string bad_counter =
      "fabric record line 5: a counter is not NAME=VALUE of PortCounters' error counters, each "
      "once";
  CHECK(refused("link_downed=255", "link_downed=256") == bad_counter);  // an 8-bit counter
  CHECK(refused("link_downed=255", "link_dawned=1") == bad_counter);
  CHECK(refused("link_downed=255", "symbol_error=1") == bad_counter);
  CHECK(refused("link_downed=255", "link_downed") == bad_counter);
  CHECK(refused("link_downed=255 ", "") ==
        "fabric record line 5: a counters line holds all 12 error counters of PortCounters");
  // A line of a million words is refused by its count, and a million empty lines are nothing.
  std::string words = "ibkit-fabric 1\nnode 1 ca -\nport";
  for (int i = 0; i < 1000000; ++i) words += " 1";
  CHECK(read_fabric_record(words).error().message ==
        "fabric record line 3: a port line has 17 fields");
  auto empty = read_fabric_record("ibkit-fabric 1" + std::string(1000000, '\n'));
  REQUIRE(empty);
  CHECK(empty->nodes.empty());
  std::string all_counters = "\ncounters";
  for (const auto& counter : error_counters()) all_counters += " " + counter.name + "=1";
  CHECK(refused("\nuncounted ", all_counters + "\nuncounted ") ==
        "fabric record line 9: an uncounted line is one hex reason, once per port");
  CHECK(refused("node 40960 switch", "counters symbol_error=1\nnode 40960 switch") ==
        "fabric record line 2: counters before any port");
  std::string many = "ibkit-fabric 1\n";
  for (std::size_t i = 0; i <= kMaxFabricNodes; ++i) many += "node 1 ca -\n";
  auto too_many = read_fabric_record(many);
  REQUIRE_FALSE(too_many);
  CHECK_THAT(too_many.error().message, Catch::EndsWith("more than 65536 nodes"));
}

TEST_CASE(
    "run_forked: what the child writes comes back, and one that hangs is killed at the deadline",
    "[util]") {
  auto wrote = run_forked(
      "writer",
      [](int out) {
        const std::string text = "hello";
        fprintf(stderr, "a word on stderr\n");
        return write(out, text.data(), text.size()) == 5 ? 7 : 1;
      },
      Deadline::after_seconds(10), 1024);
  REQUIRE(wrote);
  CHECK(wrote->out == "hello");
  CHECK(wrote->err == "a word on stderr\n");
  CHECK(wrote->exit_status == 7);

  const auto start = std::chrono::steady_clock::now();
  auto hung = run_forked(
      "sleeper",
      [](int) {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return 0;
      },
      Deadline::after_seconds(0.3), 1024);
  REQUIRE_FALSE(hung);
  CHECK(hung.error().message == "sleeper: did not finish in time; killed it");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}
