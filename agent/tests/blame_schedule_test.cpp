// The schedule for blame (--pattern topo-blame:FILE): on the subnet tier's 1,024-host fat tree
// as opensm routed it (tests/fixtures/topology), and on made-up trees, checked by walking every
// scheduled pair's routes anew.
#include "schedule/blame_schedule.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "fabric/fabric_record.hpp"
#include "fabric/routes.hpp"
#include "fat_tree.hpp"
#include "schedule/pattern.hpp"
#include "schedule/topology_links.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

std::string fixture_topology() {
  return std::string(source_dir()) + "/tests/fixtures/topology/fat-tree-1024.topology";
}

// Every adapter of the topology as a host, by the first word of its description ("viper",
// "h0002", ...), in the topology's order.
std::vector<SweepHost> hosts_in(const Subnet& fabric) {
  std::vector<SweepHost> hosts;
  for (const auto& node : fabric.nodes) {
    if (node.type != SubnetNodeType::kChannelAdapter) continue;
    hosts.push_back({node.description.substr(0, node.description.find(' ')), "10.1.0.1", 1});
  }
  return hosts;
}

struct Crossed {
  int ways = 0;  // 1 leaving the key end, 2 entering it
  std::vector<ScheduledPair> by;
};

// What the schedule does, found without the planner: partners by host, and for every
// switch-to-switch link the ways crossed and the pairs crossing it.
struct Coverage {
  std::vector<std::set<int>> partners;
  std::map<SubnetPortRef, Crossed, LinkLess> links;
  bool hosts_once_a_round = true;
  bool pair_twice = false;
};

Coverage walk(const Subnet& fabric, const std::vector<SweepHost>& hosts, const Schedule& schedule) {
  auto placement = place_hosts(fabric, hosts);
  REQUIRE(placement);
  Coverage coverage;
  coverage.partners.resize(hosts.size());
  for (const auto& link : switch_links(fabric)) coverage.links[link];
  for (const auto& round : schedule) {
    std::set<int> seen;
    for (const auto& pair : round) {
      coverage.hosts_once_a_round &= seen.insert(pair.a).second && seen.insert(pair.b).second;
      auto& mine = coverage.partners[static_cast<std::size_t>(pair.a)];
      coverage.pair_twice |= !mine.insert(pair.b).second;
      coverage.partners[static_cast<std::size_t>(pair.b)].insert(pair.a);
      for (const auto& [from, to] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
        const auto& source = placement->placed[static_cast<std::size_t>(from)];
        auto hops =
            switch_hops(fabric, source.port, placement->placed[static_cast<std::size_t>(to)].lid);
        REQUIRE(hops);
        for (const auto& hop : *hops) {
          const SubnetPortRef key = link_key(fabric, hop);
          auto& crossed = coverage.links.at(key);
          crossed.ways |= key == hop ? 1 : 2;
          crossed.by.push_back(pair);
        }
      }
    }
  }
  return coverage;
}

bool apart(const ScheduledPair& x, const ScheduledPair& y) {
  return x.a != y.a && x.a != y.b && x.b != y.a && x.b != y.b;
}

// Whether kBlameApart (three) of the pairs share no node two by two (tried every way).
static_assert(kBlameApart == 3);
bool three_apart(const std::vector<ScheduledPair>& pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    for (std::size_t j = i + 1; j < pairs.size(); ++j) {
      if (!apart(pairs[i], pairs[j])) continue;
      for (std::size_t k = j + 1; k < pairs.size(); ++k) {
        if (apart(pairs[i], pairs[k]) && apart(pairs[j], pairs[k])) return true;
      }
    }
  }
  return false;
}

// Every host with `partners` partners or more, every link both ways and by three pairs apart.
void check_blamable(const Subnet& fabric, const std::vector<SweepHost>& hosts,
                    const TopologySchedule& topo, std::size_t partners) {
  const Coverage coverage = walk(fabric, hosts, topo.schedule);
  CHECK(coverage.hosts_once_a_round);
  CHECK_FALSE(coverage.pair_twice);
  std::size_t fewest = hosts.size();
  for (const auto& mine : coverage.partners) fewest = std::min(fewest, mine.size());
  CHECK(fewest >= partners);
  std::size_t blamable = 0;
  for (const auto& [link, crossed] : coverage.links) {
    INFO(link_name(fabric, link));
    CHECK(crossed.ways == 3);
    CHECK(three_apart(crossed.by));
    blamable += crossed.ways == 3 && three_apart(crossed.by) ? 1 : 0;
  }
  CHECK(topo.for_blame);
  CHECK(topo.blamable == blamable);
  CHECK(topo.links == coverage.links.size());
  CHECK(topo.uncovered.empty());
  CHECK(topo.routes.pairs() == [&] {
    std::size_t pairs = 0;
    for (const auto& round : topo.schedule) pairs += round.size();
    return pairs;
  }());
}

}  // namespace

TEST_CASE(
    "topo-blame pattern: on the 1,024-host fat tree opensm routed, every link crossed both ways "
    "and by three pairs no two of which share a node, every host 3 partners, in 3 rounds",
    "[schedule][fabric]") {
  auto fabric = read_topology_file(fixture_topology(), "fixture");
  REQUIRE(fabric);
  const auto hosts = hosts_in(*fabric);
  REQUIRE(hosts.size() == 1024);
  auto topo = blame_schedule(*fabric, hosts);
  REQUIRE(topo);
  CHECK(topo->schedule.size() == kBlamePartners);  // the fewest rounds 3 partners take
  CHECK(topo->links == 1024);
  check_blamable(*fabric, hosts, *topo, kBlamePartners);
  CHECK(coverage_text(*topo) ==
        "cross 1024 of 1024 switch-to-switch links both ways, by three pairs no two of which "
        "share a node; every host has 3 partners or more");
}

TEST_CASE("topo-blame pattern: made-up fat trees of two and three levels, and uneven switches",
          "[schedule][fabric]") {
  SECTION("two levels") {
    const Subnet fabric = two_level(16, 8);
    const auto hosts = hosts_of(128);
    auto topo = blame_schedule(fabric, hosts);
    REQUIRE(topo);
    check_blamable(fabric, hosts, *topo, kBlamePartners);
    CHECK(topo->schedule.size() <= 4);
  }
  SECTION("three levels") {
    const Subnet fabric = three_level(4, 4, 4, 4, 4);
    const auto hosts = hosts_of(64);
    auto topo = blame_schedule(fabric, hosts);
    REQUIRE(topo);
    check_blamable(fabric, hosts, *topo, kBlamePartners);
    CHECK(topo->schedule.size() < 63);  // all-pairs
  }
  SECTION("some hosts left out: the switches hold 8, 8 and 3 of the sweep's hosts") {
    const Subnet fabric = two_level(3, 8);
    std::vector<SweepHost> hosts = hosts_of(24);
    hosts.erase(hosts.begin() + 19, hosts.end());
    auto topo = blame_schedule(fabric, hosts);
    REQUIRE(topo);
    const Coverage coverage = walk(fabric, hosts, topo->schedule);
    CHECK(coverage.hosts_once_a_round);
    CHECK_FALSE(coverage.pair_twice);
    for (const auto& mine : coverage.partners) CHECK(mine.size() >= kBlamePartners);
    CHECK(topo->fewest_partners >= kBlamePartners);
  }
}

TEST_CASE("topo-blame pattern: the pattern's word, and its errors name the file", "[schedule]") {
  auto fabric = read_topology_file(fixture_topology(), "fixture");
  REQUIRE(fabric);
  const auto hosts = hosts_in(*fabric);
  PatternTopology topology;
  auto schedule = schedule_for_pattern("topo-blame:" + fixture_topology(), hosts, 1, &topology);
  REQUIRE(schedule);
  CHECK(schedule->size() == 3);
  CHECK_THAT(topology.coverage, Catch::StartsWith("cross 1024 of 1024"));
  CHECK(topology.routes.pairs() == 3 * 512);

  auto missing = schedule_for_pattern("topo-blame:/nonexistent/topology", hosts, 1);
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message,
             Catch::StartsWith("--pattern topo-blame:/nonexistent/topology: "));
  auto stranger =
      schedule_for_pattern("topo-blame:" + fixture_topology(), {{"nosuchhost", "10.0.0.1", 1}}, 1);
  REQUIRE_FALSE(stranger);
  CHECK_THAT(stranger.error().message, Catch::Contains("nosuchhost"));
}
