#include "schedule/topology_schedule.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "fabric/fabric_record.hpp"
#include "fabric/routes.hpp"
#include "schedule/route_walker.hpp"
#include "schedule/schedule.hpp"
#include "schedule/topology_links.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kUncoveredNamed = 10;

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

  const LinkSet& link_set() const { return links_; }

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
  auto placement = place_hosts(fabric, hosts);
  if (!placement) return placement.error();
  const std::vector<PlacedHost>& placed = placement->placed;
  const std::vector<std::vector<int>>& under = placement->under;
  Planner planner(fabric, hosts, placed);
  RouteKeeper keeper(fabric, hosts, placed, planner.link_set());
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
    if (auto kept = keeper.keep(round, result.routes); !kept) return kept.error();
    result.schedule.push_back(std::move(round));
  }
  if (deadline && deadline->expired()) return deadline_passed("pairing the hosts left out");
  for (Round& round : pack_rounds(pairs_for_left_out(placed, result.schedule))) {
    if (deadline && deadline->expired()) return deadline_passed("pairing the hosts left out");
    if (auto crossed = planner.cross(round); !crossed) return crossed.error();
    if (auto kept = keeper.keep(round, result.routes); !kept) return kept.error();
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

Expected<TopologySchedule> schedule_from_file(
    const std::string& path,
    const std::function<Expected<TopologySchedule>(const Subnet&)>& build) {
  auto fabric = read_topology_file(path, "topology");
  if (!fabric) return fabric.error();
  auto schedule = build(*fabric);
  if (!schedule) return Error{path + ": " + schedule.error().message};
  return schedule;
}

Expected<TopologySchedule> read_topology_schedule(const std::string& path,
                                                  const std::vector<SweepHost>& hosts,
                                                  const std::optional<Deadline>& deadline) {
  return schedule_from_file(
      path, [&](const Subnet& fabric) { return topology_schedule(fabric, hosts, deadline); });
}

std::string coverage_text(const TopologySchedule& topology) {
  const std::size_t met = topology.for_blame ? topology.blamable : topology.covered;
  std::string text = std::string(topology.for_blame ? "cross " : "cover ") + std::to_string(met) +
                     " of " + std::to_string(topology.links) + " switch-to-switch links";
  if (topology.for_blame) {
    text += " both ways, by three pairs no two of which share a node; every host has " +
            std::to_string(topology.fewest_partners) + " partners or more";
  }
  if (!topology.uncovered.empty()) {
    text += std::string(topology.for_blame ? " (not so: "
                                           : " (the routes between these hosts never cross ") +
            join(topology.uncovered, ", ") +
            (topology.links - met > topology.uncovered.size() ? ", ..." : "") + ")";
  }
  return text;
}

}  // namespace ibkit
