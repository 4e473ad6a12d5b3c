#include "schedule/topology_schedule.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "fabric/fabric_record.hpp"
#include "fabric/routes.hpp"
#include "schedule/route_walker.hpp"
#include "schedule/schedule.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kUncoveredNamed = 10;
// The most link numbers the routes kept may hold in all, 64 MiB of them: a line of 4,096
// switches, one host each, whose pairs cross half of it on average holds some 4 million.
constexpr std::size_t kMostRouteLinks = std::size_t{1} << 24;

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string short_name(const std::string& name) { return name.substr(0, name.find('.')); }

// A host where the subnet has it: its adapter's port and the switch at the far end.
struct PlacedHost {
  SubnetPortRef port;
  std::uint16_t lid = 0;
  std::size_t leaf = 0;  // the switch's node index
};

// The channel adapters by the first word of their description, whole and short, lowercased.
std::unordered_map<std::string, std::size_t> adapters_by_name(const Subnet& fabric) {
  std::unordered_map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    const SubnetNode& node = fabric.nodes[i];
    if (node.type != SubnetNodeType::kChannelAdapter) continue;
    const std::string word = lowercase(node.description.substr(0, node.description.find(' ')));
    if (word.empty()) continue;
    by_name.emplace(word, i);
    by_name.emplace(short_name(word), i);
  }
  return by_name;
}

Expected<PlacedHost> place(const Subnet& fabric,
                           const std::unordered_map<std::string, std::size_t>& adapters,
                           const SweepHost& host) {
  const std::string name = lowercase(host.name.empty() ? host.address : host.name);
  auto found = adapters.find(name);
  if (found == adapters.end()) found = adapters.find(short_name(name));
  if (found == adapters.end()) {
    return Error{"host " + host_description(host) +
                 " is no channel adapter's node description (its first word): name the hosts "
                 "as their adapters describe themselves (hostname HCA-1)"};
  }
  for (const auto& port : fabric.nodes[found->second].ports) {
    if (!port.remote || port.state != kPortStateActive || port.lid == 0) continue;
    if (fabric.node_of(*port.remote).type != SubnetNodeType::kSwitch) continue;
    return PlacedHost{{found->second, port.number}, port.lid, port.remote->node};
  }
  return Error{"host " + host_description(host) +
               " has no ACTIVE port cabled to a switch in the "
               "saved topology"};
}

struct LinkLess {
  bool operator()(const SubnetPortRef& a, const SubnetPortRef& b) const {
    return a.node != b.node ? a.node < b.node : a.port < b.port;
  }
};

// A link by its lower end, so both directions of a cable count once. A cable whose far end does
// not lead back (listed from one end only, as a saved topology may hold it) is known by the end
// that lists it. `out` has a far end; so has the port returned.
SubnetPortRef link_key(const Subnet& fabric, const SubnetPortRef& out) {
  const SubnetPortRef far = *fabric.port_of(out)->remote;
  const SubnetPort* back = fabric.port_of(far);
  if (back == nullptr || !back->remote || !(*back->remote == out)) return out;
  return LinkLess{}(far, out) ? far : out;
}
using LinkSet = std::set<SubnetPortRef, LinkLess>;

LinkSet switch_links(const Subnet& fabric) {
  LinkSet links;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    if (fabric.nodes[i].type != SubnetNodeType::kSwitch) continue;
    for (const auto& port : fabric.nodes[i].ports) {
      if (port.number == 0 || !port.remote || port.state != kPortStateActive) continue;
      if (fabric.node_of(*port.remote).type != SubnetNodeType::kSwitch) continue;
      if (fabric.port_of(*port.remote) == nullptr) continue;
      links.insert(link_key(fabric, {i, port.number}));
    }
  }
  return links;
}

// `link` is a link_key: a port with a far end.
std::string link_name(const Subnet& fabric, const SubnetPortRef& link) {
  return port_name(fabric, link) + " <-> " + port_name(fabric, *fabric.port_of(link)->remote);
}

// One round from a pairing of switches: host k of one with host k of the other, who drives
// alternating with k.
Round round_between(const std::vector<std::vector<int>>& under, const Round& leaf_pairs) {
  Round round;
  for (const auto& pair : leaf_pairs) {
    const auto& first = under[static_cast<std::size_t>(pair.a)];
    const auto& second = under[static_cast<std::size_t>(pair.b)];
    for (std::size_t k = 0; k < std::min(first.size(), second.size()); ++k) {
      if (k % 2 == 0) {
        round.push_back({first[k], second[k]});
      } else {
        round.push_back({second[k], first[k]});
      }
    }
  }
  return round;
}

// Choosing the rounds: the links, those the rounds kept so far cross, and what the walks learnt.
class Planner {
 public:
  Planner(const Subnet& fabric, const std::vector<SweepHost>& hosts,
          const std::vector<PlacedHost>& placed)
      : fabric_(fabric),
        hosts_(hosts),
        placed_(placed),
        links_(switch_links(fabric)),
        walker_(fabric) {}

  std::size_t links() const { return links_.size(); }
  bool all_crossed() const { return crossed_.size() == links_.size(); }
  bool none_crossed() const { return crossed_.empty(); }
  const std::string& first_unrouted() const { return first_unrouted_; }

  // Walks both ways of every pair of `round`, counting the links they cross as crossed; true when
  // one of them was not crossed before. Fails naming the route and switch where tables loop.
  Expected<bool> cross(const Round& round) {
    bool new_link = false;
    for (const auto& pair : round) {
      for (const auto& [from, to] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
        const std::uint16_t lid = placed(to).lid;
        auto walk = walker_.walk(placed(from).port, lid);
        if (!walk) {
          return Error{"the forwarding tables loop: the route from " + name(from) + " to " +
                       name(to) + " (LID " + std::to_string(lid) + ") " + walk.error().message +
                       ": save the topology again once the subnet manager has routed the subnet"};
        }
        if (!walk->arrived && first_unrouted_.empty()) {
          first_unrouted_ = "the first, from " + name(from) + " to " + name(to) + " (LID " +
                            std::to_string(lid) + "), " +
                            (walk->stopped_at ? "stops at " + node_name(fabric_, *walk->stopped_at)
                                              : std::string("stops short"));
        }
        if (!walk->arrived) continue;
        for (const auto& hop : walk->new_hops) {
          const SubnetPortRef key = link_key(fabric_, hop);
          if (links_.count(key) != 0 && crossed_.insert(key).second) new_link = true;
        }
      }
    }
    return new_link;
  }

  // Keeps the links each pair of `round` crosses, both ways, in `routes`: each link's name once,
  // a pair its links' numbers. Fails when all the routes kept would hold more than
  // kMostRouteLinks numbers.
  Expected<Done> keep_routes(const Round& round, PairRoutes& routes) {
    for (const auto& pair : round) {
      std::vector<std::uint32_t> route;
      for (const auto& [from, to] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
        auto hops = switch_hops(fabric_, placed(from).port, placed(to).lid);
        if (!hops) continue;
        for (const auto& hop : *hops) {
          const SubnetPortRef key = link_key(fabric_, hop);
          if (links_.count(key) == 0) continue;
          auto [at, added] = numbers_.emplace(key, 0);
          if (added) at->second = routes.link(link_name(fabric_, key));
          route.push_back(at->second);
        }
      }
      routes.set_route(name(pair.a), name(pair.b), std::move(route));
      if (routes.numbers_kept() > kMostRouteLinks) {
        return Error{"the routes between these hosts cross more than " +
                     std::to_string(kMostRouteLinks) +
                     " switch-to-switch links in all, more than a sweep keeps: route the subnet "
                     "with fewer switches on each path, or sweep fewer hosts"};
      }
    }
    return Done{};
  }

  // The first links no kept round crosses, by name.
  std::vector<std::string> uncovered(std::size_t most) const {
    std::vector<std::string> names;
    for (const auto& link : links_) {
      if (names.size() == most) break;
      if (crossed_.count(link) == 0) names.push_back(link_name(fabric_, link));
    }
    return names;
  }
  std::size_t covered() const { return crossed_.size(); }

 private:
  const PlacedHost& placed(int host) const { return placed_[static_cast<std::size_t>(host)]; }
  const std::string& name(int host) const { return hosts_[static_cast<std::size_t>(host)].name; }

  const Subnet& fabric_;
  const std::vector<SweepHost>& hosts_;
  const std::vector<PlacedHost>& placed_;
  const LinkSet links_;
  LinkSet crossed_;
  RouteWalker walker_;
  std::map<SubnetPortRef, std::uint32_t, LinkLess> numbers_;  // a link's number in the routes
  std::string first_unrouted_;  // the first route that does not arrive, for an error
};

// Pairs for the hosts no round put in a pair (a switch with more hosts than the one it was
// paired with): each with a host under another switch, one in no pair yet when there is one,
// else the one given fewest of these pairs so far. In the hosts' order.
std::vector<ScheduledPair> pairs_for_left_out(const std::vector<PlacedHost>& placed,
                                              const Schedule& schedule) {
  const std::size_t n = placed.size();
  std::vector<bool> in_pair = nodes_in_pairs(schedule, n);
  std::vector<int> given(n, 0);
  std::vector<ScheduledPair> pairs;
  for (std::size_t h = 0; h < n; ++h) {
    if (in_pair[h]) continue;
    std::size_t best = n;
    for (std::size_t c = 0; c < n; ++c) {
      if (placed[c].leaf == placed[h].leaf) continue;
      if (best == n || std::pair{in_pair[c], given[c]} < std::pair{in_pair[best], given[best]})
        best = c;
    }
    if (best == n) continue;  // every host under one switch: refused before
    in_pair[h] = in_pair[best] = true;
    ++given[best];
    pairs.push_back({static_cast<int>(h), static_cast<int>(best)});
  }
  return pairs;
}

Error deadline_passed(const std::string& while_doing) {
  return Error{"--deadline passed while " + while_doing +
               ": raise --deadline, or give fewer hosts or a smaller topology"};
}

}  // namespace

Expected<TopologySchedule> topology_schedule(const Subnet& fabric,
                                             const std::vector<SweepHost>& hosts,
                                             const std::optional<Deadline>& deadline) {
  if (std::none_of(fabric.nodes.begin(), fabric.nodes.end(),
                   [](const SubnetNode& node) { return !node.forwarding.empty(); })) {
    return Error{
        "the topology holds no forwarding tables: save it again with ibkit fabric "
        "--save-topology, which reads them"};
  }
  const auto adapters = adapters_by_name(fabric);
  std::vector<PlacedHost> placed;
  std::map<std::size_t, int> leaf_number;  // switch node -> its index in `under`
  std::vector<std::vector<int>> under;     // hosts by the switch they hang from
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    auto host = place(fabric, adapters, hosts[h]);
    if (!host) return host.error();
    auto [at, added] = leaf_number.emplace(host->leaf, static_cast<int>(under.size()));
    if (added) under.emplace_back();
    under[static_cast<std::size_t>(at->second)].push_back(static_cast<int>(h));
    placed.push_back(*host);
  }
  if (under.size() < 2) {
    return Error{
        "every host hangs from one switch: no switch-to-switch link to cover; use "
        "all-pairs or ring"};
  }
  Planner planner(fabric, hosts, placed);
  TopologySchedule result;
  result.links = planner.links();
  const int leaves = static_cast<int>(under.size());
  const int pairings = circle_rounds(leaves);
  for (int r = 0; r < pairings && !planner.all_crossed(); ++r) {
    if (deadline && deadline->expired()) {
      return deadline_passed("choosing the rounds (" + std::to_string(r) + " of " +
                             std::to_string(pairings) + " pairings of the switches tried)");
    }
    Round round = round_between(under, circle_round(leaves, r));
    auto new_link = planner.cross(round);
    if (!new_link) return new_link.error();
    if (!*new_link) continue;
    if (auto kept = planner.keep_routes(round, result.routes); !kept) return kept.error();
    result.schedule.push_back(std::move(round));
  }
  if (deadline && deadline->expired()) return deadline_passed("pairing the hosts left out");
  for (Round& round : pack_rounds(pairs_for_left_out(placed, result.schedule))) {
    if (deadline && deadline->expired()) return deadline_passed("pairing the hosts left out");
    if (auto crossed = planner.cross(round); !crossed) return crossed.error();
    if (auto kept = planner.keep_routes(round, result.routes); !kept) return kept.error();
    result.schedule.push_back(std::move(round));
  }
  if (planner.none_crossed()) {
    if (planner.links() == 0)
      return Error{"the topology has no ACTIVE switch-to-switch link between these hosts"};
    return Error{"no route between these hosts arrives as the forwarding tables send it (" +
                 planner.first_unrouted() +
                 "): a topology saved before the subnet manager gave these LIDs? save it again "
                 "with ibkit fabric --save-topology"};
  }
  result.covered = planner.covered();
  result.uncovered = planner.uncovered(kUncoveredNamed);
  return result;
}

Expected<TopologySchedule> read_topology_schedule(const std::string& path,
                                                  const std::vector<SweepHost>& hosts,
                                                  const std::optional<Deadline>& deadline) {
  auto fabric = read_topology_file(path, "topology");
  if (!fabric) return fabric.error();
  auto schedule = topology_schedule(*fabric, hosts, deadline);
  if (!schedule) return Error{path + ": " + schedule.error().message};
  return schedule;
}

std::string coverage_text(const TopologySchedule& topology) {
  std::string text = "cover " + std::to_string(topology.covered) + " of " +
                     std::to_string(topology.links) + " switch-to-switch links";
  if (!topology.uncovered.empty()) {
    text += " (the routes between these hosts never cross " + join(topology.uncovered, ", ") +
            (topology.links - topology.covered > topology.uncovered.size() ? ", ..." : "") + ")";
  }
  return text;
}

}  // namespace ibkit
