// Blaming a switch-to-switch link instead of nodes when a sweep's bad pairs share it and
// nothing else: on a fat tree's own routes (fat_tree.hpp, scheduled by --pattern topo), and on
// synthetic routes for the cases it must leave alone.
#include "rules/link_blame.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fat_tree.hpp"
#include "report/html/sweep_html.hpp"
#include "report/sweep_markdown.hpp"
#include "report/sweep_text.hpp"
#include "rules/blame.hpp"
#include "schedule/blame_schedule.hpp"
#include "schedule/topology_schedule.hpp"
#include "schema/sweep_report_json.hpp"
#include "schema/verdict_summary_json.hpp"
#include "util/text.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

SweepPair pair_of(const std::string& a, const std::string& b, int round, PairStatus status) {
  SweepPair pair;
  pair.a = a;
  pair.b = b;
  pair.round = round;
  pair.attempts = 1;
  pair.status = status;
  if (status != PairStatus::kPass) pair.reason = "fleet: bw write 65536 B: 3.1 Gb/s is 0.1x";
  return pair;
}

// A sweep of the schedule's pairs, all passing.
SweepReport passing_sweep(const std::vector<SweepHost>& hosts, const Schedule& schedule) {
  SweepReport report;
  for (const auto& host : hosts) report.nodes.push_back(host.name);
  report.rounds = static_cast<int>(schedule.size());
  for (std::size_t r = 0; r < schedule.size(); ++r) {
    for (const auto& pair : schedule[r]) {
      report.pairs.push_back(pair_of(hosts[static_cast<std::size_t>(pair.a)].name,
                                     hosts[static_cast<std::size_t>(pair.b)].name,
                                     static_cast<int>(r) + 1, PairStatus::kPass));
    }
  }
  return report;
}

std::vector<std::string> route(const PairRoutes& routes, const SweepPair& pair) {
  return routes.route_names(pair.a, pair.b);
}

struct GivenRoute {
  std::string a;
  std::string b;
  std::vector<std::string> links;
};

PairRoutes routes_of(const std::vector<GivenRoute>& given) {
  PairRoutes routes;
  for (const auto& route : given) routes.set_route(route.a, route.b, route.links);
  return routes;
}

bool crosses(const std::vector<std::string>& route, const std::string& link) {
  return std::find(route.begin(), route.end(), link) != route.end();
}

// Four nodes in two rounds (a-b, c-d; a-c, b-d) and the routes given, by pair.
SweepReport four_nodes(PairStatus ab, PairStatus cd, PairStatus ac, PairStatus bd) {
  SweepReport report;
  report.nodes = {"a", "b", "c", "d"};
  report.rounds = 2;
  report.pairs = {pair_of("a", "b", 1, ab), pair_of("c", "d", 1, cd), pair_of("a", "c", 2, ac),
                  pair_of("b", "d", 2, bd)};
  return report;
}

}  // namespace

// On a two-level tree the topology's rounds cross each link with one pair, so a bad link there
// is one bad pair, as a bad pair is; on three levels they cross links with 2 pairs or more.
TEST_CASE("link blame: the pairs across one fat-tree link slow, the link is named, not a node",
          "[rules][fabric]") {
  const Subnet fabric = three_level(4, 4, 4, 4, 4);
  const auto hosts = hosts_of(64);
  auto topo = topology_schedule(fabric, hosts);
  REQUIRE(topo);
  SweepReport report = passing_sweep(hosts, topo->schedule);
  REQUIRE(report.pairs.size() == topo->routes.pairs());

  // Each scheduled link in turn: the pairs across it go slow, and that must be what is blamed.
  std::size_t judged = 0;
  for (const auto& scheduled : report.pairs) {
    for (const auto& link : route(topo->routes, scheduled)) {
      SweepReport sweep = report;
      std::vector<std::string> shared;
      std::size_t across = 0;
      for (auto& pair : sweep.pairs) {
        const auto crossed = route(topo->routes, pair);
        if (!crosses(crossed, link)) continue;
        pair.status = PairStatus::kSlow;
        pair.reason = "fleet: slow";
        if (across++ == 0) {
          shared = crossed;
        } else {
          std::vector<std::string> both;
          std::set_intersection(shared.begin(), shared.end(), crossed.begin(), crossed.end(),
                                std::back_inserter(both));
          shared = both;
        }
      }
      if (across < 2) continue;
      ++judged;
      blame_nodes(sweep);
      blame_links(sweep, topo->routes);
      INFO(link << ": " << across << " pairs across it");
      CHECK(sweep.blamed.empty());
      REQUIRE(sweep.blamed_links.size() == 1);
      CHECK_THAT(sweep.blamed_links[0].link, Catch::Contains(link));
      CHECK(sweep.blamed_links[0].link == join(shared, " and "));
      CHECK_THAT(sweep.blamed_links[0].reason,
                 Catch::StartsWith(std::to_string(across) + " of the " + std::to_string(across) +
                                   " pairs whose routes cross it did not pass"));
      for (const auto& pair : sweep.pairs) {
        if (pair.status == PairStatus::kSlow)
          CHECK_THAT(pair.reason,
                     Catch::StartsWith("blamed on link " + sweep.blamed_links[0].link));
      }
      CHECK(sweep_failed(sweep));
    }
  }
  CHECK(judged > 0);
}

namespace {

// The topo-blame rounds of a two-level tree, all passing, with their routes.
struct BlameSweep {
  SweepReport report;
  PairRoutes routes;
};
BlameSweep blame_sweep(const Subnet& fabric, int hosts) {
  auto topo = blame_schedule(fabric, hosts_of(hosts));
  REQUIRE(topo);
  return {passing_sweep(hosts_of(hosts), topo->schedule), topo->routes};
}

// Every pair whose routes cross `link` slow; how many.
std::size_t slow_across(SweepReport& report, const PairRoutes& routes, const std::string& link) {
  std::size_t slow = 0;
  for (auto& pair : report.pairs) {
    if (!crosses(route(routes, pair), link)) continue;
    pair.status = PairStatus::kSlow;
    pair.reason = "fleet: slow";
    ++slow;
  }
  return slow;
}

void slow_node(SweepReport& report, const std::string& node) {
  for (auto& pair : report.pairs) {
    if (pair.a != node && pair.b != node) continue;
    pair.status = PairStatus::kSlow;
    pair.reason = "fleet: slow";
  }
}

void blame(SweepReport& report, const PairRoutes& routes) {
  blame_nodes(report);
  blame_links(report, routes);
}

// The links a blame schedule's pairs cross, by name.
std::set<std::string> links_of(const BlameSweep& sweep) {
  std::set<std::string> links;
  for (const auto& pair : sweep.report.pairs) {
    for (const auto& link : route(sweep.routes, pair)) links.insert(link);
  }
  return links;
}

}  // namespace

// Every pair reaching a host from another switch comes down the one cable its LID is routed by:
// a slow cable makes all of that host's pairs slow, as a slow receiver would, and
// blame_nodes names the host; the other pairs across the cable (going up it) tell the two apart.
TEST_CASE(
    "link blame: on the topo-blame rounds a slow cable is blamed, not the host whose "
    "traffic comes down it",
    "[rules][fabric]") {
  BlameSweep sweep = blame_sweep(two_level(16, 8), 128);
  const std::set<std::string> links = links_of(sweep);
  REQUIRE(links.size() == 128);
  for (const auto& link : links) {
    SweepReport report = sweep.report;
    REQUIRE(slow_across(report, sweep.routes, link) >= 2);
    blame(report, sweep.routes);
    INFO(link);
    CHECK(report.blamed.empty());
    REQUIRE(report.blamed_links.size() == 1);
    CHECK(report.blamed_links[0].link == link);  // no other link crossed by all its pairs
    for (const auto& pair : report.pairs) {
      if (pair.status == PairStatus::kSlow)
        CHECK_THAT(pair.reason, Catch::StartsWith("blamed on link "));
    }
  }
}

TEST_CASE(
    "link blame: a slow host on the topo-blame rounds is the host, and two slow cables and a "
    "slow host at once are all three",
    "[rules][fabric]") {
  BlameSweep sweep = blame_sweep(two_level(16, 8), 128);
  SECTION("one host") {
    for (const std::string node : {"h1", "h42", "h128"}) {
      SweepReport report = sweep.report;
      slow_node(report, node);
      blame(report, sweep.routes);
      REQUIRE(report.blamed.size() == 1);
      CHECK(report.blamed[0].node == node);
      CHECK(report.blamed_links.empty());
    }
  }
  SECTION("three faults apart: cables of leaves 0 and 5, host h100 under leaf 12") {
    SweepReport report = sweep.report;
    std::vector<std::string> cables;
    for (const auto& pair : report.pairs) {
      for (const auto& link : route(sweep.routes, pair)) {
        const bool wanted = (cables.empty() && link.find("leaf0 (") != std::string::npos) ||
                            (cables.size() == 1 && link.find("leaf5 (") != std::string::npos);
        if (wanted) cables.push_back(link);
      }
    }
    REQUIRE(cables.size() == 2);
    for (const auto& cable : cables) slow_across(report, sweep.routes, cable);
    slow_node(report, "h100");
    blame(report, sweep.routes);
    REQUIRE(report.blamed.size() == 1);
    CHECK(report.blamed[0].node == "h100");
    REQUIRE(report.blamed_links.size() == 2);
    std::vector<std::string> named;
    for (const auto& blamed : report.blamed_links) named.push_back(blamed.link);
    std::sort(named.begin(), named.end());
    std::sort(cables.begin(), cables.end());
    CHECK(named == cables);
  }
}

namespace {

// The host whose every pair crosses `link`: the one whose traffic comes down it.
std::string receiver_of(const BlameSweep& sweep, const std::string& link) {
  for (const auto& node : sweep.report.nodes) {
    bool all = true;
    for (const auto& pair : sweep.report.pairs) {
      if ((pair.a == node || pair.b == node) && !crosses(route(sweep.routes, pair), link))
        all = false;
    }
    if (all) return node;
  }
  return "";
}

}  // namespace

TEST_CASE(
    "link blame: two slow cables of one switch are both named (one of them alone), and "
    "nobody else",
    "[rules][fabric]") {
  BlameSweep sweep = blame_sweep(two_level(16, 8), 128);
  std::vector<std::string> leaf0;
  for (const auto& link : links_of(sweep)) {
    if (link.find("leaf0 (") != std::string::npos) leaf0.push_back(link);
  }
  REQUIRE(leaf0.size() == 8);
  for (std::size_t i = 0; i < leaf0.size(); ++i) {
    for (std::size_t j = i + 1; j < leaf0.size(); ++j) {
      SweepReport report = sweep.report;
      slow_across(report, sweep.routes, leaf0[i]);
      slow_across(report, sweep.routes, leaf0[j]);
      blame(report, sweep.routes);
      INFO(leaf0[i] << " and " << leaf0[j]);
      CHECK(report.blamed.empty());
      // Each named, alone or with the few links every pair across it crosses too.
      REQUIRE(report.blamed_links.size() == 2);
      const auto& first = report.blamed_links[0].link;
      const auto& second = report.blamed_links[1].link;
      const bool in_order =
          first.find(leaf0[i]) != std::string::npos && second.find(leaf0[j]) != std::string::npos;
      const bool swapped =
          first.find(leaf0[j]) != std::string::npos && second.find(leaf0[i]) != std::string::npos;
      CHECK((in_order || swapped));
      CHECK((first == leaf0[i] || first == leaf0[j] || second == leaf0[i] || second == leaf0[j]));
    }
  }
}

// A slow node's pairs all cross the cable its traffic comes down; one more bad pair across that
// cable, slow for its own reason, must not turn the node into the cable.
TEST_CASE(
    "link blame: a slow node and one other slow pair across its cable stay a node and a "
    "pair",
    "[rules][fabric]") {
  BlameSweep sweep = blame_sweep(two_level(16, 8), 128);
  std::size_t judged = 0;
  for (const auto& link : links_of(sweep)) {
    const std::string node = receiver_of(sweep, link);
    REQUIRE_FALSE(node.empty());
    for (const auto& other : sweep.report.pairs) {
      if (other.a == node || other.b == node || !crosses(route(sweep.routes, other), link))
        continue;
      SweepReport report = sweep.report;
      slow_node(report, node);
      for (auto& pair : report.pairs) {
        if (pair.a == other.a && pair.b == other.b) {
          pair.status = PairStatus::kSlow;
          pair.reason = "fleet: slow";
        }
      }
      blame(report, sweep.routes);
      INFO(node << " slow, and " << other.a << "-" << other.b << " across " << link);
      REQUIRE(report.blamed.size() == 1);
      CHECK(report.blamed[0].node == node);
      CHECK(report.blamed_links.empty());
      ++judged;
    }
  }
  CHECK(judged > 100);
}

// With several faults at once a healthy node's last two pairs can meet a slow node and a slow
// cable; then it is not blamed, and its pairs name those causes.
TEST_CASE("link blame: a node whose bad pairs are a slow node's and a slow cable's is not blamed",
          "[rules][fabric]") {
  BlameSweep sweep = blame_sweep(two_level(16, 8), 128);
  const auto links = links_of(sweep);
  std::size_t judged = 0;
  for (const auto& slow : {"h3", "h40", "h77", "h120"}) {
    for (const auto& link : links) {
      SweepReport report = sweep.report;
      slow_node(report, slow);
      slow_across(report, sweep.routes, link);
      // A node node blame names that is neither the slow one nor the cable's receiver.
      const std::string receiver = receiver_of(sweep, link);
      SweepReport nodes_only = report;
      blame_nodes(nodes_only);
      std::string victim;
      for (const auto& blamed : nodes_only.blamed) {
        if (blamed.node != slow && blamed.node != receiver) victim = blamed.node;
      }
      if (victim.empty()) continue;
      blame(report, sweep.routes);
      INFO(slow << " slow, " << link << " slow, " << victim << " between them");
      for (const auto& blamed : report.blamed) CHECK(blamed.node != victim);
      REQUIRE(report.blamed_links.size() == 1);
      CHECK(report.blamed_links[0].link == link);
      for (const auto& pair : report.pairs) {
        if ((pair.a == victim || pair.b == victim) && pair.status == PairStatus::kSlow)
          CHECK_THAT(pair.reason, !Catch::StartsWith("blamed on " + victim + ":"));
      }
      ++judged;
    }
  }
  CHECK(judged > 0);
}

TEST_CASE("link blame: bad pairs with a node in common, or no link in common, blame no link",
          "[rules]") {
  const PairRoutes routes = routes_of({{"a", "b", {"L1", "L2"}},
                                       {"c", "d", {"L1", "L3"}},
                                       {"a", "c", {"L1", "L4"}},
                                       {"b", "d", {"L5"}}});
  SECTION("two bad pairs share L1 and no node: L1") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kFailed, PairStatus::kPass, PairStatus::kPass);
    blame_links(report, routes);
    REQUIRE(report.blamed_links.size() == 1);
    CHECK(report.blamed_links[0].link == "L1");
    CHECK_THAT(report.blamed_links[0].reason,
               Catch::StartsWith("2 of the 3 pairs whose routes cross it did not pass"));
  }
  SECTION("the bad pairs share node a: its business, not a link's") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kPass, PairStatus::kSlow, PairStatus::kPass);
    blame_links(report, routes);
    CHECK(report.blamed_links.empty());
    CHECK(report.pairs[0].reason.rfind("blamed", 0) == std::string::npos);
  }
  SECTION("the bad pairs' routes cross no link in common") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kPass, PairStatus::kPass, PairStatus::kSlow);
    blame_links(report, routes);
    CHECK(report.blamed_links.empty());
  }
  SECTION("one bad pair is only a pair") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kPass, PairStatus::kPass, PairStatus::kPass);
    blame_links(report, routes);
    CHECK(report.blamed_links.empty());
  }
  SECTION("a bad pair on another rail, whose routes are not known") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kSlow, PairStatus::kPass, PairStatus::kPass);
    report.pairs[1].rail = 1;
    blame_links(report, routes);
    CHECK(report.blamed_links.empty());
  }
  SECTION("no routes: a sweep not scheduled from the topology") {
    auto report =
        four_nodes(PairStatus::kSlow, PairStatus::kSlow, PairStatus::kPass, PairStatus::kPass);
    blame_links(report, {});
    CHECK(report.blamed_links.empty());
  }
}

TEST_CASE("link blame: fewer than half the pairs across a link bad blames no link", "[rules]") {
  SweepReport report;
  report.nodes = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  PairRoutes routes;
  const std::vector<PairStatus> statuses = {PairStatus::kSlow, PairStatus::kSlow, PairStatus::kPass,
                                            PairStatus::kPass, PairStatus::kPass};
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const std::string a = report.nodes[2 * i];
    const std::string b = report.nodes[2 * i + 1];
    report.pairs.push_back(pair_of(a, b, 1, statuses[i]));
    routes.set_route(a, b, std::vector<std::string>{"L1"});
  }
  blame_links(report, routes);
  CHECK(report.blamed_links.empty());

  report.pairs[2] = pair_of("e", "f", 1, PairStatus::kTimedOut);  // now 3 of 5
  blame_links(report, routes);
  REQUIRE(report.blamed_links.size() == 1);
  CHECK_THAT(report.blamed_links[0].reason, Catch::StartsWith("3 of the 5 pairs"));
}

TEST_CASE("link blame: pairs already blamed on a node are left to it", "[rules]") {
  auto report =
      four_nodes(PairStatus::kSlow, PairStatus::kSlow, PairStatus::kPass, PairStatus::kPass);
  report.pairs[0].reason = "blamed on a: fleet: slow";
  blame_links(
      report,
      routes_of({{"a", "b", {"L1"}}, {"c", "d", {"L1"}}, {"a", "c", {"L2"}}, {"b", "d", {"L2"}}}));
  CHECK(report.blamed_links.empty());  // one bad pair left
}

TEST_CASE("link blame: the report writes, reads back and prints the blamed link", "[rules]") {
  auto report =
      four_nodes(PairStatus::kSlow, PairStatus::kFailed, PairStatus::kPass, PairStatus::kPass);
  blame_links(report, routes_of({{"a", "b", {"leaf0 port 5 <-> spine0 port 1"}},
                                 {"c", "d", {"leaf0 port 5 <-> spine0 port 1"}},
                                 {"a", "c", {"leaf1 port 5 <-> spine0 port 2"}},
                                 {"b", "d", {"leaf1 port 5 <-> spine0 port 2"}}}));
  REQUIRE(report.blamed_links.size() == 1);
  auto read = sweep_report_from_json(nlohmann::json::parse(render_sweep_json(report)));
  REQUIRE(read);
  REQUIRE(read->blamed_links.size() == 1);
  CHECK(read->blamed_links[0].link == "leaf0 port 5 <-> spine0 port 1");
  CHECK(read->blamed_links[0].reason == report.blamed_links[0].reason);
  CHECK_THAT(render_sweep_text(*read, false),
             Catch::Contains("blamed  link leaf0 port 5 <-> spine0 port 1: 2 of the 2 pairs") &&
                 Catch::Contains("blamed nodes 0, blamed links 1,"));
  CHECK_THAT(render_sweep_markdown(*read),
             Catch::Contains("### Blamed links") && Catch::Contains("leaf0 port 5 \\<-> spine0"));
  CHECK_THAT(render_sweep_html(*read), Catch::Contains("<h2>Blamed links</h2>") &&
                                           Catch::Contains("<b>leaf0 port 5 &lt;-&gt; spine0"));
  CHECK_THAT(render_verdict_summary_json(*read),
             Catch::Contains("\"blamed_links\":[{\"link\":\"leaf0 port 5 <-> spine0 port 1\""));

  report.blamed_links.clear();
  CHECK(render_sweep_json(report).find("blamed_links") == std::string::npos);
}
