// sweep --pattern topo on fat trees (fat_tree.hpp), routed min-hop and spread over equal paths by
// destination LID (d-mod-k, as opensm's ftree engine does): every switch-to-switch link carries a
// test, in a few rounds, at 64, 1,024 and 4,096 hosts on two and three levels; and the routes it
// follows.
#include "schedule/topology_schedule.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fabric/fabric_record.hpp"
#include "fabric/routes.hpp"
#include "fat_tree.hpp"
#include "switch_chain.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

std::size_t leaf_of(const Subnet& fabric, const std::vector<SweepHost>& hosts, int host) {
  for (const auto& node : fabric.nodes)
    if (node.description == hosts[static_cast<std::size_t>(host)].name + " HCA-1")
      return node.ports[0].remote->node;
  throw std::logic_error("no such host");
}

// Every round has each host at most once, and every pair crosses switches.
void check_rounds(const Subnet& fabric, const std::vector<SweepHost>& hosts,
                  const Schedule& schedule) {
  std::map<int, std::size_t> leaf;
  for (int h = 0; h < static_cast<int>(hosts.size()); ++h) leaf[h] = leaf_of(fabric, hosts, h);
  for (const auto& round : schedule) {
    std::set<int> seen;
    for (const auto& pair : round) {
      CHECK(seen.insert(pair.a).second);
      CHECK(seen.insert(pair.b).second);
      CHECK(leaf[pair.a] != leaf[pair.b]);
    }
  }
}

}  // namespace

TEST_CASE("switch_hops: the switch-to-switch ports a packet leaves by, as the tables send it",
          "[fabric][schedule]") {
  Subnet fabric = two_level(2, 2);  // spines 0-1, leaf0 2, hosts 3-4, leaf1 5, hosts 6-7
  const SubnetPortRef h1{3, 1};
  auto across = switch_hops(fabric, h1, 3);  // h3, under leaf1: LID 3
  REQUIRE(across);
  REQUIRE(across->size() == 2);
  CHECK(fabric.nodes[(*across)[0].node].description == "leaf0");
  CHECK(fabric.nodes[(*across)[1].node].description.rfind("spine", 0) == 0);
  auto beside = switch_hops(fabric, h1, 2);  // h2, under leaf0
  REQUIRE(beside);
  CHECK(beside->empty());
  fabric.nodes[2].forwarding[3] = kNoForwardingPort;
  CHECK_FALSE(switch_hops(fabric, h1, 3));
  fabric.nodes[2].forwarding.clear();
  CHECK_FALSE(switch_hops(fabric, h1, 3));
  // Two spines that send LID 3 to each other's leaf and back again never arrive.
  fabric = two_level(2, 2);
  for (auto& node : fabric.nodes)
    if (node.type == SubnetNodeType::kSwitch && node.description != "leaf0") node.forwarding[3] = 1;
  fabric.nodes[2].forwarding[3] = 3;
  CHECK_FALSE(switch_hops(fabric, h1, 3));
}

TEST_CASE(
    "topo pattern: every switch-to-switch link of a two-level fat tree in one or two "
    "rounds, at 64, 1,024 and 4,096 hosts",
    "[schedule][fabric]") {
  for (const auto& [leaves, down] : {std::pair{8, 8}, std::pair{32, 32}, std::pair{128, 32}}) {
    const Subnet fabric = two_level(leaves, down);
    const auto hosts = hosts_of(leaves * down);
    auto topo = topology_schedule(fabric, hosts);
    REQUIRE(topo);
    INFO(leaves * down << " hosts: " << topo->schedule.size() << " rounds");
    CHECK(topo->links == static_cast<std::size_t>(leaves * down));
    CHECK(topo->covered == topo->links);
    CHECK(topo->uncovered.empty());
    CHECK(topo->schedule.size() <= 2);
    check_rounds(fabric, hosts, topo->schedule);
    CHECK(coverage_text(*topo) == "cover " + std::to_string(leaves * down) + " of " +
                                      std::to_string(leaves * down) + " switch-to-switch links");
  }
}

TEST_CASE(
    "topo pattern: every link of a three-level fat tree, in far fewer rounds than "
    "all-pairs, at 64, 1,024 and 4,096 hosts",
    "[schedule][fabric]") {
  struct Shape {
    int pods, edges, aggregates, down, cores;
    std::size_t most_rounds;
  };
  for (const auto& shape :
       {Shape{4, 4, 4, 4, 4, 6}, Shape{8, 8, 8, 16, 4, 8}, Shape{16, 16, 8, 16, 4, 8}}) {
    const Subnet fabric =
        three_level(shape.pods, shape.edges, shape.aggregates, shape.down, shape.cores);
    const int count = shape.pods * shape.edges * shape.down;
    const auto hosts = hosts_of(count);
    auto topo = topology_schedule(fabric, hosts);
    REQUIRE(topo);
    INFO(count << " hosts: " << topo->schedule.size() << " rounds, " << coverage_text(*topo));
    const auto edge_links = static_cast<std::size_t>(shape.pods * shape.edges * shape.aggregates);
    const auto core_links = static_cast<std::size_t>(shape.pods * shape.aggregates * shape.cores);
    CHECK(topo->links == edge_links + core_links);
    CHECK(topo->covered == topo->links);
    CHECK(topo->schedule.size() <= shape.most_rounds);
    check_rounds(fabric, hosts, topo->schedule);
  }
}

TEST_CASE(
    "topo pattern: links the routes never cross are named, and no round is kept for "
    "nothing",
    "[schedule][fabric]") {
  // Every leaf sends everything through its first uplink: the other spines carry nothing.
  Subnet fabric = two_level(4, 4);
  for (auto& node : fabric.nodes) {
    if (node.description.rfind("leaf", 0) != 0) continue;
    for (std::size_t lid = 1; lid <= 16; ++lid)
      if (node.forwarding[lid] > 4) node.forwarding[lid] = 5;
  }
  auto topo = topology_schedule(fabric, hosts_of(16));
  REQUIRE(topo);
  CHECK(topo->links == 16);
  CHECK(topo->covered == 4);  // each leaf's cable to spine0
  REQUIRE(topo->uncovered.size() == 10);
  CHECK_THAT(topo->uncovered[0], !Catch::Contains("spine0"));
  CHECK(topo->schedule.size() == 1);  // the other pairings of the leaves cross nothing new
  CHECK_THAT(coverage_text(*topo), Catch::StartsWith("cover 4 of 16 switch-to-switch links (the "
                                                     "routes between these hosts never cross "));
  CHECK_THAT(coverage_text(*topo), Catch::EndsWith(", ...)"));
}

TEST_CASE(
    "topo pattern: a host the subnet has no adapter for, hosts under one switch, or a "
    "topology without forwarding tables are refused, saying what to do",
    "[schedule][fabric]") {
  const Subnet fabric = two_level(2, 2);
  auto hosts = hosts_of(4);
  hosts[2].name = "H3.cluster.example";  // matched without case, by its short name
  CHECK(topology_schedule(fabric, hosts));
  hosts[2].name = "ghost";
  auto ghost = topology_schedule(fabric, hosts);
  REQUIRE_FALSE(ghost);
  CHECK_THAT(ghost.error().message, Catch::StartsWith("host ghost (10.0.0.3:18515) is no channel "
                                                      "adapter's node description"));
  auto alone = topology_schedule(fabric, {hosts[0], hosts[1]});
  REQUIRE_FALSE(alone);
  CHECK_THAT(alone.error().message, Catch::StartsWith("every host hangs from one switch"));
  Subnet unrouted = fabric;
  for (auto& node : unrouted.nodes) node.forwarding.clear();
  auto no_tables = topology_schedule(unrouted, hosts_of(4));
  REQUIRE_FALSE(no_tables);
  CHECK_THAT(no_tables.error().message, Catch::Contains("--save-topology"));
}

TEST_CASE(
    "fabric record: a switch's forwarding table reads back, and one on an adapter or too "
    "long is refused",
    "[fabric]") {
  const Subnet fabric = two_level(2, 2);
  const std::string record = record_fabric(fabric);
  auto read = read_fabric_record(record);
  REQUIRE(read);
  CHECK(read->nodes[2].forwarding == fabric.nodes[2].forwarding);
  CHECK(record_fabric(*read) == record);
  const std::string host_line = "node " + std::to_string(fabric.nodes[3].guid) + " ca ";
  std::string on_adapter = record;
  const auto at = on_adapter.find(host_line);
  REQUIRE(at != std::string::npos);
  on_adapter.insert(on_adapter.find('\n', at) + 1, "forwarding 00\n");
  auto refused = read_fabric_record(on_adapter);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message,
             Catch::EndsWith("a forwarding line belongs to a switch, once"));
  std::string too_long = "ibkit-fabric 1\nnode 1 switch -\nforwarding " +
                         std::string(2 * kMaxForwardingLids + 2, '0') + "\n";
  CHECK_FALSE(read_fabric_record(too_long));
}

TEST_CASE("topo pattern: a cable listed from one end only is named from the end that lists it",
          "[schedule][fabric]") {
  Subnet fabric = switch_chain(2);  // sw0 port 3 <-> sw1 port 2, h1 under sw0, h2 under sw1
  fabric.nodes[0].ports[3].remote.reset();
  const std::string cable = "sw1 (0x0000000000200001) port 2 <-> sw0 (0x0000000000200000) port 3";
  auto topo = topology_schedule(fabric, hosts_of(2));
  REQUIRE(topo);
  CHECK(topo->links == 1);
  CHECK(topo->covered == 1);  // h2's traffic to h1 crosses it; h1's finds no far end
  CHECK(topo->routes.route_names("h1", "h2") == std::vector<std::string>{cable});
}
