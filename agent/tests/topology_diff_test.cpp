// fabric.topology on two-level fat trees built here: a saved subnet against one with a cable
// moved, unplugged or added, a switch gone, a host added, the nodes listed in another order,
// GUIDs repeated, many cables gone, and a 4,096-host tree.
#include "fabric/topology_diff.hpp"

#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

using namespace ibkit;

namespace {

// Leaves first, then spines, then hosts (each leaf's in turn). A leaf's ports 1..hosts go to its
// hosts and the next `spines` ports to spine 1, 2, ... (at the spine port numbered after the
// leaf); every switch has one spare port after those.
struct FatTree {
  int leaves = 2;
  int hosts_per_leaf = 2;
  int spines = 2;

  std::size_t leaf(int l) const { return static_cast<std::size_t>(l); }
  std::size_t spine(int s) const { return static_cast<std::size_t>(leaves + s); }
  std::size_t host(int l, int h) const {
    return static_cast<std::size_t>(leaves + spines + l * hosts_per_leaf + h);
  }
  int uplink(int s) const { return hosts_per_leaf + 1 + s; }  // a leaf's port to spine s
  int leaf_spare() const { return hosts_per_leaf + spines + 1; }
  int spine_spare() const { return leaves + 1; }

  Subnet build() const;
};

SubnetPort& port_at(Subnet& fabric, SubnetPortRef ref) {
  for (auto& port : fabric.nodes.at(ref.node).ports)
    if (port.number == ref.port) return port;
  throw std::logic_error("no such port");
}

void connect(Subnet& fabric, SubnetPortRef a, SubnetPortRef b) {
  port_at(fabric, a).remote = b;
  port_at(fabric, b).remote = a;
}

// Pulls the cable out of `ref`, and so out of its far end.
void unplug(Subnet& fabric, SubnetPortRef ref) {
  SubnetPort& port = port_at(fabric, ref);
  if (port.remote) port_at(fabric, *port.remote).remote.reset();
  port.remote.reset();
}

SubnetNode node_with_ports(std::uint64_t guid, SubnetNodeType type, std::string description,
                           int ports) {
  SubnetNode node{guid, type, std::move(description), {}, {}};
  for (int p = 1; p <= ports; ++p) {
    SubnetPort port;
    port.number = p;
    port.guid = guid;
    port.state = kPortStateActive;
    node.ports.push_back(port);
  }
  return node;
}

Subnet FatTree::build() const {
  Subnet fabric;
  for (int l = 0; l < leaves; ++l) {
    fabric.nodes.push_back(node_with_ports(0xa000 + static_cast<std::uint64_t>(l),
                                           SubnetNodeType::kSwitch, "leaf-" + std::to_string(l + 1),
                                           leaf_spare()));
  }
  for (int s = 0; s < spines; ++s) {
    fabric.nodes.push_back(node_with_ports(0xb000 + static_cast<std::uint64_t>(s),
                                           SubnetNodeType::kSwitch,
                                           "spine-" + std::to_string(s + 1), spine_spare()));
  }
  for (int l = 0; l < leaves; ++l) {
    for (int h = 0; h < hosts_per_leaf; ++h) {
      const int n = l * hosts_per_leaf + h;
      fabric.nodes.push_back(node_with_ports(0x100000 + static_cast<std::uint64_t>(n),
                                             SubnetNodeType::kChannelAdapter,
                                             "h" + std::to_string(n + 1) + " HCA-1", 1));
      connect(fabric, {host(l, h), 1}, {leaf(l), h + 1});
    }
    for (int s = 0; s < spines; ++s) connect(fabric, {leaf(l), uplink(s)}, {spine(s), l + 1});
  }
  return fabric;
}

// The nodes `order` names, in that order, links to the others dropped: discovery's view of the
// same subnet listed differently, or with nodes gone.
Subnet keep_nodes(const Subnet& fabric, const std::vector<std::size_t>& order) {
  std::vector<std::optional<std::size_t>> moved_to(fabric.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) moved_to[order[i]] = i;
  Subnet kept;
  for (std::size_t old_index : order) {
    SubnetNode node = fabric.nodes[old_index];
    for (auto& port : node.ports) {
      if (!port.remote) continue;
      if (auto index = moved_to[port.remote->node]) {
        port.remote->node = *index;
      } else {
        port.remote.reset();
      }
    }
    kept.nodes.push_back(std::move(node));
  }
  return kept;
}

std::vector<CheckResult> failures(const CheckResults& results) {
  std::vector<CheckResult> failed;
  for (const auto& result : results)
    if (result.status == Status::kFail) failed.push_back(result);
  return failed;
}

const std::string kLeaf1 = "leaf-1 (0x000000000000a000)";
const std::string kSpine1 = "spine-1 (0x000000000000b000)";
const std::string kSpine2 = "spine-2 (0x000000000000b001)";

}  // namespace

TEST_CASE("fabric.topology: a subnet as saved passes with one result counting it", "[fabric]") {
  const FatTree tree;
  const auto results = check_topology(tree.build(), tree.build());
  REQUIRE(results.size() == 1);
  CHECK(results[0].id == "fabric.topology");
  CHECK(results[0].status == Status::kPass);
  CHECK(results[0].observed == "8 nodes, 8 links as saved");
  CHECK(results[0].expected == "every node and link saved (8 nodes, 8 links)");
}

TEST_CASE("fabric.topology: nodes are matched by GUID, not by where discovery listed them",
          "[fabric]") {
  const FatTree tree;
  const Subnet saved = tree.build();
  std::vector<std::size_t> reversed(saved.nodes.size());
  std::iota(reversed.rbegin(), reversed.rend(), std::size_t{0});
  const auto results = check_topology(saved, keep_nodes(saved, reversed));
  REQUIRE(results.size() == 1);
  CHECK(results[0].status == Status::kPass);
  CHECK(results[0].observed == "8 nodes, 8 links as saved");
}

TEST_CASE(
    "fabric.topology: a cable moved to another spine port is one result naming where it "
    "led and where it leads",
    "[fabric]") {
  const FatTree tree;
  const Subnet saved = tree.build();
  Subnet now = saved;
  unplug(now, {tree.leaf(0), tree.uplink(0)});  // leaf-1 port 3, from spine-1 port 1 ...
  connect(now, {tree.leaf(0), tree.uplink(0)}, {tree.spine(1), tree.spine_spare()});  // to spine-2
  const auto results = check_topology(saved, now);
  const auto failed = failures(results);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].subject == kLeaf1 + " port 3");
  CHECK(failed[0].observed == "moved: cabled to " + kSpine2 + " port 3");
  CHECK(failed[0].expected == "cabled to " + kSpine1 + " port 1");
  CHECK(failed[0].hint == "reconnect the cable from " + kLeaf1 + " port 3 to " + kSpine1 +
                              " port 1, or if the move was intended, save the topology again "
                              "(ibkit fabric --save-topology FILE)");
  CHECK(results.back().observed == "8 nodes, 7 links as saved");

  // Two cables swapped at a spine: two moved cables, each named once.
  Subnet swapped = saved;
  connect(swapped, {tree.leaf(0), tree.uplink(0)}, {tree.spine(0), 2});
  connect(swapped, {tree.leaf(1), tree.uplink(0)}, {tree.spine(0), 1});
  const auto swaps = failures(check_topology(saved, swapped));
  REQUIRE(swaps.size() == 2);
  for (const auto& swap : swaps) CHECK_THAT(swap.observed, Catch::StartsWith("moved: "));
}

TEST_CASE(
    "fabric.topology: an unplugged cable is missing, a cable between free ports is new, "
    "each naming both ends",
    "[fabric]") {
  const FatTree tree;
  const Subnet saved = tree.build();
  Subnet unplugged = saved;
  unplug(unplugged, {tree.leaf(0), 2});  // h2's cable
  const auto missing = failures(check_topology(saved, unplugged));
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].subject == kLeaf1 + " port 2 <-> h2 HCA-1 (0x0000000000100001) port 1");
  CHECK(missing[0].observed == "missing: no link between these ports");
  CHECK(missing[0].expected == "cabled to each other");
  CHECK_THAT(missing[0].hint, Catch::StartsWith("connect or reseat the cable"));

  Subnet added = saved;
  connect(added, {tree.leaf(0), tree.leaf_spare()}, {tree.spine(0), tree.spine_spare()});
  const auto results = check_topology(saved, added);
  const auto added_failed = failures(results);
  REQUIRE(added_failed.size() == 1);
  CHECK(added_failed[0].subject == kLeaf1 + " port 5 <-> " + kSpine1 + " port 3");
  CHECK(added_failed[0].observed == "new: cabled to each other");
  CHECK(added_failed[0].expected == "both ports free in the saved topology");
  CHECK(results.back().observed == "8 nodes, 8 links as saved");
}

TEST_CASE(
    "fabric.topology: a switch gone is one result naming its saved links, and a host added is "
    "one result, its cable with it",
    "[fabric]") {
  const FatTree tree;
  const Subnet saved = tree.build();
  std::vector<std::size_t> all_but_spine2;
  for (std::size_t i = 0; i < saved.nodes.size(); ++i)
    if (i != tree.spine(1)) all_but_spine2.push_back(i);
  const Subnet without_spine = keep_nodes(saved, all_but_spine2);
  const auto results = check_topology(saved, without_spine);
  const auto gone = failures(results);
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].subject == kSpine2);
  CHECK(gone[0].observed == "missing: no node answers with this GUID");
  CHECK(gone[0].expected == "a switch with 2 links: port 1 to " + kLeaf1 +
                                " port 4, port 2 to leaf-2 (0x000000000000a001) port 4");
  CHECK(results.back().observed == "7 nodes, 6 links as saved");

  // leaf-1's cable to the missing spine now in spine-1's spare port: moved, from where it led.
  Subnet replugged = without_spine;
  connect(replugged, {tree.leaf(0), tree.uplink(1)}, {tree.spine(0), tree.spine_spare()});
  const auto moved = failures(check_topology(saved, replugged));
  REQUIRE(moved.size() == 2);
  CHECK(moved[1].subject == kLeaf1 + " port 4");
  CHECK(moved[1].observed == "moved: cabled to " + kSpine1 + " port 3");
  CHECK(moved[1].expected == "cabled to " + kSpine2 + " port 1");

  Subnet with_host = saved;
  with_host.nodes.push_back(
      node_with_ports(0x200000, SubnetNodeType::kChannelAdapter, "h5 HCA-1", 1));
  connect(with_host, {with_host.nodes.size() - 1, 1}, {tree.leaf(0), tree.leaf_spare()});
  const auto added = failures(check_topology(saved, with_host));
  REQUIRE(added.size() == 1);
  CHECK(added[0].subject == "h5 HCA-1 (0x0000000000200000)");
  CHECK(added[0].observed == "new: a channel adapter with 1 link: port 1 to " + kLeaf1 + " port 5");
  CHECK(added[0].expected == "not in the saved topology");
  CHECK_THAT(added[0].hint, Catch::EndsWith("(ibkit fabric --save-topology FILE)"));
}

TEST_CASE("fabric.topology: a GUID two nodes share counts once, without a crash", "[fabric]") {
  const FatTree tree;
  const Subnet saved = tree.build();
  Subnet shared = saved;
  shared.nodes[tree.host(0, 1)].guid = shared.nodes[tree.host(0, 0)].guid;
  shared.nodes[tree.spine(1)].guid = shared.nodes[tree.leaf(0)].guid;
  CheckResults results;
  REQUIRE_NOTHROW(results = check_topology(saved, shared));
  CHECK(any_failed(results));
  REQUIRE_NOTHROW(results = check_topology(shared, saved));
  CHECK(any_failed(results));
  REQUIRE_NOTHROW(results = check_topology(shared, shared));
  CHECK_FALSE(any_failed(results));
}

TEST_CASE("fabric.topology: past 50 problems of a kind, one result counts the rest", "[fabric]") {
  const FatTree tree{4, 16, 2};
  const Subnet saved = tree.build();
  Subnet now = saved;
  for (int n = 0; n < 60; ++n) unplug(now, {tree.host(n / 16, n % 16), 1});
  const auto results = check_topology(saved, now);
  const auto failed = failures(results);
  REQUIRE(failed.size() == kTopologyProblemsListed + 1);
  CHECK(failed[49].observed == "missing: no link between these ports");
  CHECK(failed[50].subject == "subnet");
  CHECK(failed[50].observed == "10 more missing cables than the 50 listed");
  CHECK(results.back().observed == "70 nodes, 12 links as saved");
}

TEST_CASE("fabric.topology: a 4,096-host fat tree against itself, and with one cable moved",
          "[fabric]") {
  const FatTree tree{128, 32, 32};
  const Subnet saved = tree.build();
  const auto same = check_topology(saved, saved);
  REQUIRE(same.size() == 1);
  CHECK(same[0].status == Status::kPass);
  CHECK(same[0].observed == "4256 nodes, 8192 links as saved");

  Subnet now = saved;
  unplug(now, {tree.leaf(77), tree.uplink(5)});
  connect(now, {tree.leaf(77), tree.uplink(5)}, {tree.spine(9), tree.spine_spare()});
  const auto moved = failures(check_topology(saved, now));
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].subject == "leaf-78 (0x000000000000a04d) port 38");
  CHECK(moved[0].observed == "moved: cabled to spine-10 (0x000000000000b009) port 129");
  CHECK(moved[0].expected == "cabled to spine-6 (0x000000000000b005) port 78");
}
