#include "schedule/blame_schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "schedule/schedule.hpp"
#include "schedule/topology_links.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kNamedShort = 10;
// Rounds weighed for each one kept: the next pairings of the switches not used up, each with
// host k against host k + offset for the first few offsets.
constexpr int kPairingsWeighed = 16;
constexpr int kOffsetsWeighed = 4;

bool no_node_shared(const ScheduledPair& x, const ScheduledPair& y) {
  return x.a != y.a && x.a != y.b && x.b != y.a && x.b != y.b;
}

struct LinkState {
  std::uint8_t ways = 0;
  std::vector<ScheduledPair> apart;  // crossers no two of which share a node, kBlameApart at most

  // What is still missing: a way not crossed, or pairs apart.
  int missing() const {
    const int ways_missing = (ways & 1 ? 0 : 1) + (ways & 2 ? 0 : 1);
    return ways_missing + kBlameApart - static_cast<int>(apart.size());
  }
  void cross(const ScheduledPair& pair, std::uint8_t way) {
    ways = static_cast<std::uint8_t>(ways | way);
    if (apart.size() == static_cast<std::size_t>(kBlameApart)) return;
    if (std::all_of(apart.begin(), apart.end(),
                    [&](const ScheduledPair& other) { return no_node_shared(other, pair); }))
      apart.push_back(pair);
  }
};

std::uint64_t pair_key(int a, int b) {
  const auto low = static_cast<std::uint64_t>(std::min(a, b));
  const auto high = static_cast<std::uint64_t>(std::max(a, b));
  return (low << 32) | high;
}

// Host k of one switch with host k + offset of the other; who drives alternates with k.
Round round_between(const std::vector<std::vector<int>>& under, const Round& leaf_pairs,
                    std::size_t offset) {
  Round round;
  for (const auto& pair : leaf_pairs) {
    const auto& first = under[static_cast<std::size_t>(pair.a)];
    const auto& second = under[static_cast<std::size_t>(pair.b)];
    for (std::size_t k = 0; k < std::min(first.size(), second.size()); ++k) {
      const int there = second[(k + offset) % second.size()];
      if (k % 2 == 0) {
        round.push_back({first[k], there});
      } else {
        round.push_back({there, first[k]});
      }
    }
  }
  return round;
}

class BlamePlanner {
 public:
  BlamePlanner(const Subnet& fabric, const HostPlacement& placement, const LinkSet& links)
      : fabric_(fabric),
        placement_(placement),
        ways_(fabric, placement.placed, links),
        partners_(placement.placed.size(), 0) {
    states_.resize(ways_.size());
    for (std::size_t h = 0; h < partners_.size(); ++h) {
      const std::size_t elsewhere = partners_.size() - under_of(placement.placed[h].leaf).size();
      wanted_.push_back(static_cast<int>(std::min<std::size_t>(kBlamePartners, elsewhere)));
    }
  }

  // What `round` would meet of what is missing: ways, disjoint pairs and partners.
  long gain(const Round& round) {
    std::unordered_map<std::uint32_t, LinkState> touched;
    long met = 0;
    for (const auto& pair : round) {
      if (met_before(pair)) continue;
      for (int host : {pair.a, pair.b}) met += partners_[idx(host)] < wanted_[idx(host)] ? 1 : 0;
      for (const auto& crossing : crossings(pair)) {
        auto [at, added] = touched.emplace(crossing.link, LinkState{});
        if (added) at->second = states_[crossing.link];
        at->second.cross(pair, crossing.way);
      }
    }
    for (const auto& [link, state] : touched) met += states_[link].missing() - state.missing();
    return met;
  }

  void add(const Round& round) {
    for (const auto& pair : round) {
      if (!met_.insert(pair_key(pair.a, pair.b)).second) continue;
      ++partners_[idx(pair.a)];
      ++partners_[idx(pair.b)];
      for (const auto& crossing : crossings(pair)) states_[crossing.link].cross(pair, crossing.way);
    }
  }

  bool met_before(const ScheduledPair& pair) const {
    return met_.count(pair_key(pair.a, pair.b)) != 0;
  }

  // Pairs for the hosts short of partners, each with a host under another switch it has not
  // met, the one with fewest partners first; in the hosts' order.
  std::vector<ScheduledPair> pairs_for_short() {
    std::vector<ScheduledPair> pairs;
    const std::size_t n = partners_.size();
    for (std::size_t h = 0; h < n; ++h) {
      while (partners_[h] < wanted_[h]) {
        std::size_t best = n;
        for (std::size_t c = 0; c < n; ++c) {
          if (placement_.placed[c].leaf == placement_.placed[h].leaf ||
              met_before({static_cast<int>(h), static_cast<int>(c)}))
            continue;
          if (best == n || partners_[c] < partners_[best]) best = c;
        }
        if (best == n) break;
        const ScheduledPair pair{static_cast<int>(h), static_cast<int>(best)};
        add({pair});
        pairs.push_back(pair);
      }
    }
    return pairs;
  }

  std::size_t crossed() const {
    return static_cast<std::size_t>(std::count_if(states_.begin(), states_.end(),
                                                  [](const LinkState& s) { return s.ways != 0; }));
  }
  std::size_t blamable() const {
    return static_cast<std::size_t>(std::count_if(
        states_.begin(), states_.end(), [](const LinkState& s) { return s.missing() == 0; }));
  }
  int fewest_partners() const {
    return partners_.empty() ? 0 : *std::min_element(partners_.begin(), partners_.end());
  }
  std::vector<std::string> short_links(std::size_t most) const {
    std::vector<std::string> names;
    for (std::uint32_t i = 0; i < ways_.size() && names.size() < most; ++i) {
      if (states_[i].missing() != 0) names.push_back(link_name(fabric_, ways_.key(i)));
    }
    return names;
  }

 private:
  static std::size_t idx(int host) { return static_cast<std::size_t>(host); }

  const std::vector<int>& under_of(std::size_t leaf) const {
    for (const auto& hosts : placement_.under) {
      if (placement_.placed[idx(hosts.front())].leaf == leaf) return hosts;
    }
    return placement_.under.front();
  }

  // The links both ways of `pair` cross.
  std::vector<LinkCrossing> crossings(const ScheduledPair& pair) {
    std::vector<LinkCrossing> all;
    for (const auto& [from, to] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
      const auto& route = ways_.way(idx(from), idx(to));
      all.insert(all.end(), route.begin(), route.end());
    }
    return all;
  }

  const Subnet& fabric_;
  const HostPlacement& placement_;
  LinkWays ways_;
  std::vector<LinkState> states_;
  std::vector<int> partners_;
  std::vector<int> wanted_;
  std::unordered_set<std::uint64_t> met_;
};

Error deadline_passed(const std::string& while_doing) {
  return Error{"--deadline passed while " + while_doing +
               ": raise --deadline, or give fewer hosts or a smaller topology"};
}

}  // namespace

Expected<TopologySchedule> blame_schedule(const Subnet& fabric, const std::vector<SweepHost>& hosts,
                                          const std::optional<Deadline>& deadline) {
  auto placement = place_hosts(fabric, hosts);
  if (!placement) return placement.error();
  const LinkSet links = switch_links(fabric);
  BlamePlanner planner(fabric, *placement, links);
  const int leaves = static_cast<int>(placement->under.size());
  const int pairings = circle_rounds(leaves);
  std::size_t most_under = 0;
  for (const auto& under : placement->under) most_under = std::max(most_under, under.size());
  const int offsets = static_cast<int>(std::min<std::size_t>(kOffsetsWeighed, most_under));
  std::vector<std::vector<bool>> used(static_cast<std::size_t>(pairings),
                                      std::vector<bool>(static_cast<std::size_t>(offsets), false));
  TopologySchedule result;
  while (true) {
    if (deadline && deadline->expired())
      return deadline_passed("choosing the rounds (" + std::to_string(result.schedule.size()) +
                             " chosen)");
    long best_gain = 0;
    std::pair<int, int> best{-1, -1};
    Round best_round;
    int weighed = 0;
    for (int r = 0; r < pairings && weighed < kPairingsWeighed; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      if (std::all_of(used[ri].begin(), used[ri].end(), [](bool u) { return u; })) continue;
      ++weighed;
      const Round leaf_pairs = circle_round(leaves, r);
      for (int o = 0; o < offsets; ++o) {
        if (used[ri][static_cast<std::size_t>(o)]) continue;
        Round round = round_between(placement->under, leaf_pairs, static_cast<std::size_t>(o));
        const long gain = planner.gain(round);
        if (gain > best_gain) {
          best_gain = gain;
          best = {r, o};
          best_round = std::move(round);
        }
      }
    }
    if (best_gain == 0) break;
    // A pairing of the switches is used once, whatever its offset: pairs of one switch meeting
    // the same switch again would cross both switches' links together, and a slow one of
    // them could not be told from the other.
    auto& pairing = used[static_cast<std::size_t>(best.first)];
    std::fill(pairing.begin(), pairing.end(), true);
    planner.add(best_round);
    result.schedule.push_back(std::move(best_round));
  }
  for (Round& round : pack_rounds(planner.pairs_for_short()))
    result.schedule.push_back(std::move(round));
  RouteKeeper keeper(fabric, hosts, placement->placed, links);
  for (const Round& round : result.schedule) {
    if (auto kept = keeper.keep(round, result.routes); !kept) return kept.error();
  }
  if (links.empty())
    return Error{"the topology has no ACTIVE switch-to-switch link between these hosts"};
  result.links = links.size();
  result.covered = planner.crossed();
  if (result.covered == 0) {
    return Error{
        "no route between these hosts arrives as the forwarding tables send it: a topology "
        "saved before the subnet manager gave these LIDs? save it again with ibkit fabric "
        "--save-topology"};
  }
  result.for_blame = true;
  result.blamable = planner.blamable();
  result.fewest_partners = planner.fewest_partners();
  result.uncovered = planner.short_links(kNamedShort);
  return result;
}

Expected<TopologySchedule> read_blame_schedule(const std::string& path,
                                               const std::vector<SweepHost>& hosts,
                                               const std::optional<Deadline>& deadline) {
  return schedule_from_file(
      path, [&](const Subnet& fabric) { return blame_schedule(fabric, hosts, deadline); });
}

}  // namespace ibkit
