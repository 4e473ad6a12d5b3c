// sweep --pattern topo on topologies built to hurt it (switch_chain.hpp): tables that loop, a
// line of 2,048 switches whose routes are as long as routes get, switches of unequal host
// counts, tables that route nothing, a deadline. Bounds are asserted on counts (walk steps,
// names kept), never on wall time.
#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "fabric/fabric_record.hpp"
#include "fat_tree.hpp"
#include "schedule/route_walker.hpp"
#include "schedule/topology_schedule.hpp"
#include "scratch_path.hpp"
#include "switch_chain.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

std::size_t table_entries(const Subnet& fabric) {
  std::size_t entries = 0;
  for (const auto& node : fabric.nodes) entries += node.forwarding.size();
  return entries;
}

// The host port of host h (0-based) of a switch_chain, and its LID.
SubnetPortRef host_port(const Subnet& fabric, std::size_t h) {
  std::size_t switches = 0;
  while (fabric.nodes[switches].type == SubnetNodeType::kSwitch) ++switches;
  return {switches + h, 1};
}

// Every host of `hosts` is in some pair; no node twice in a round; no pair twice.
void check_every_host_paired(const Schedule& schedule, std::size_t hosts) {
  std::set<int> paired;
  std::set<std::pair<int, int>> pairs;
  for (const auto& round : schedule) {
    std::set<int> busy;
    for (const auto& pair : round) {
      CHECK(busy.insert(pair.a).second);
      CHECK(busy.insert(pair.b).second);
      CHECK(pairs.insert(std::minmax(pair.a, pair.b)).second);
      paired.insert(pair.a);
      paired.insert(pair.b);
    }
  }
  CHECK(paired.size() == hosts);
}

}  // namespace

TEST_CASE("route walker: every route of a 256-switch line, each switch's way on walked once",
          "[schedule][fabric]") {
  const int switches = 256;
  const Subnet fabric = switch_chain(switches);
  RouteWalker walker(fabric);
  std::size_t hops = 0;
  for (std::size_t a = 0; a < switches; ++a) {
    for (std::size_t b = 0; b < switches; ++b) {
      const auto lid = static_cast<std::uint16_t>(b + 1);
      auto walk = walker.walk(host_port(fabric, a), lid);
      REQUIRE(walk);
      CHECK(walk->arrived);
      hops += walk->new_hops.size();
    }
  }
  // Walked one by one the routes are 256 x 256 x 85 steps on average, some 5.6 million.
  CHECK(walker.steps() <= table_entries(fabric) + switches * switches);
  CHECK(hops == static_cast<std::size_t>(switches) * (switches - 1));  // every link once a LID
}

TEST_CASE("topo pattern: tables that loop are refused, naming the file, the route and the switch",
          "[schedule][fabric]") {
  Subnet fabric = switch_chain(64);
  route_away(fabric);
  auto looped = topology_schedule(fabric, hosts_of(64));
  REQUIRE_FALSE(looped);
  // The first round pairs h64 with h1: sw63 can only send LID 1 back to sw62, which sends it
  // away from h1 again.
  CHECK(looped.error().message ==
        "the forwarding tables loop: the route from h64 to h1 (LID 1) comes back to switch sw63 "
        "(0x000000000020003f): save the topology again once the subnet manager has routed the "
        "subnet");
  const std::string path = write_scratch_file("looped-topology", record_fabric(fabric));
  auto from_file = read_topology_schedule(path, hosts_of(64));
  REQUIRE_FALSE(from_file);
  CHECK_THAT(from_file.error().message,
             Catch::StartsWith(path + ": the forwarding tables loop: ") &&
                 Catch::Contains("comes back to switch sw"));
  std::filesystem::remove(path);
}

TEST_CASE(
    "topo pattern: a line of 2,048 switches keeps each link's name once, and its routes' numbers "
    "in proportion to what they cross",
    "[schedule][fabric]") {
  const int switches = 2048;
  const Subnet fabric = switch_chain(switches);
  auto topo = topology_schedule(fabric, hosts_of(switches));
  REQUIRE(topo);
  CHECK(topo->links == switches - 1);
  CHECK(topo->covered == topo->links);
  REQUIRE(topo->schedule.size() == 1);  // h1 with h2048 crosses every link
  // Pair k of the round is h(k+1) with h(2048-k): 2047 - 2k links. Kept as names per pair, that
  // was a million strings (285 MB); kept once, it is the 2,047 names and a million numbers.
  std::size_t crossed = 0;
  for (std::size_t k = 0; k < switches / 2; ++k) crossed += switches - 1 - 2 * k;
  CHECK(topo->routes.pairs() == switches / 2);
  CHECK(topo->routes.names_kept() == switches - 1);
  CHECK(topo->routes.numbers_kept() == crossed);
  CHECK(topo->routes.route_names("h1", "h2048").size() == switches - 1);
}

TEST_CASE("topo pattern: a deadline that passes stops the schedule with an error that names it",
          "[schedule][fabric]") {
  const Subnet fabric = two_level(8, 8);
  auto late = topology_schedule(fabric, hosts_of(64), Deadline::after_seconds(0));
  REQUIRE_FALSE(late);
  CHECK(late.error().message ==
        "--deadline passed while choosing the rounds (0 of 7 pairings of the switches tried): "
        "raise --deadline, or give fewer hosts or a smaller topology");
  CHECK(topology_schedule(fabric, hosts_of(64), Deadline::after_seconds(600)));
}

TEST_CASE(
    "topo pattern: under switches of unequal host counts every host is in a pair, the extra ones "
    "with hosts under other switches",
    "[schedule][fabric]") {
  for (const std::vector<int>& under :
       {std::vector<int>{3, 1}, std::vector<int>{1, 5, 2}, std::vector<int>{8, 1, 1, 4}}) {
    const Subnet fabric = switch_chain(under);
    std::size_t count = 0;
    for (int k : under) count += static_cast<std::size_t>(k);
    INFO(count << " hosts");
    auto topo = topology_schedule(fabric, hosts_of(static_cast<int>(count)));
    REQUIRE(topo);
    CHECK(topo->covered == topo->links);
    check_every_host_paired(topo->schedule, count);
    for (const auto& round : topo->schedule) {
      for (const auto& pair : round) {
        const auto a = host_port(fabric, static_cast<std::size_t>(pair.a));
        const auto b = host_port(fabric, static_cast<std::size_t>(pair.b));
        CHECK(fabric.port_of(a)->remote->node != fabric.port_of(b)->remote->node);
        CHECK(topo->routes.route(hosts_of(static_cast<int>(count))[pair.a].name,
                                 hosts_of(static_cast<int>(count))[pair.b].name) != nullptr);
      }
    }
  }
  // 3 hosts under sw0, 1 under sw1: h1-h4 covers the cable, h2 and h3 then take h4 in turn.
  auto three_one = topology_schedule(switch_chain({3, 1}), hosts_of(4));
  REQUIRE(three_one);
  CHECK(three_one->schedule.size() == 3);
}

TEST_CASE("topo pattern: tables that route no pair are refused, naming the first route",
          "[schedule][fabric]") {
  Subnet fabric = switch_chain({64, 64});
  for (auto& node : fabric.nodes) {  // ports 1-64 are a switch's hosts, 65 and 66 its cables
    for (auto& out : node.forwarding)
      if (out > 64) out = kNoForwardingPort;
  }
  auto nothing = topology_schedule(fabric, hosts_of(128));
  REQUIRE_FALSE(nothing);
  CHECK_THAT(nothing.error().message,
             Catch::StartsWith("no route between these hosts arrives as the forwarding tables "
                               "send it (the first, from h65 to h1 (LID 1), stops at sw1 "
                               "(0x0000000000200001))"));
}
