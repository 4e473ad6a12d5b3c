#include "rules/link_blame.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rules/blame.hpp"
#include "util/text.hpp"

namespace ibkit {

namespace {

using Links = std::vector<std::uint32_t>;

bool crosses_all(const Links& route, const Links& links) {
  return std::includes(route.begin(), route.end(), links.begin(), links.end());
}

bool crosses(const Links& route, std::uint32_t link) {
  return std::binary_search(route.begin(), route.end(), link);
}

bool node_in_all(const std::vector<SweepPair*>& pairs, const std::string& node) {
  return std::all_of(pairs.begin(), pairs.end(),
                     [&](const SweepPair* pair) { return pair->a == node || pair->b == node; });
}

bool node_in_all(const std::vector<SweepPair*>& pairs) {
  return !pairs.empty() && (node_in_all(pairs, pairs.front()->a) ||
                            node_in_all(pairs, pairs.front()->b));
}

// A bad pair the links may explain, with its route.
struct Suspect {
  SweepPair* pair = nullptr;
  const Links* route = nullptr;
  std::string node;  // the node it is blamed on, "" when none
  bool explained = false;
};

// The sweep's bad pairs as blame_links weighs them, and the nodes blamed that a link may
// explain instead.
class LinkJudge {
 public:
  LinkJudge(SweepReport& report, const PairRoutes& routes) : report_(report), routes_(routes) {}

  // False when a bad pair's route is not known: then no link is judged.
  bool gather() {
    std::map<std::string, bool> all_slow;  // blamed node -> every bad pair of it slow
    for (const auto& blame : report_.blamed) all_slow[blame.node] = true;
    for (auto& pair : report_.pairs) {
      if (!pair_bad(pair)) continue;
      for (const std::string* node : {&pair.a, &pair.b}) {
        if (auto it = all_slow.find(*node); it != all_slow.end())
          it->second = it->second && pair.status == PairStatus::kSlow;
      }
    }
    for (auto& pair : report_.pairs) {
      if (!pair_bad(pair)) continue;
      std::string node;
      if (pair_blamed(pair)) {
        node = blamed_node(pair);
        // Pairs blamed on a link already, or on a node that failed or went silent, stay so: a
        // slow link does not stop a node answering.
        if (node.empty() || !all_slow[node]) continue;
      }
      const Links* route = routes_.route(pair.a, pair.b);
      if (pair.rail != 0 || route == nullptr) return false;
      suspects_.push_back({&pair, route, node});
    }
    return true;
  }

  // The link (or the few every one of its pairs crosses) that explains the most bad pairs not
  // yet explained, blamed; false when no link qualifies.
  bool blame_next() {
    std::map<std::uint32_t, std::size_t> unexplained;
    for (const auto& suspect : suspects_) {
      if (suspect.explained) continue;
      for (std::uint32_t link : *suspect.route) ++unexplained[link];
    }
    std::vector<std::pair<std::size_t, std::uint32_t>> order;
    for (const auto& [link, count] : unexplained) order.emplace_back(count, link);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& [count, link] : order) {
      if (count < 2) break;
      if (try_link(link)) return true;
    }
    return false;
  }

 private:
  // The node a pair's reason blames ("blamed on NODE: "), "" for a link or none.
  std::string blamed_node(const SweepPair& pair) const {
    for (const auto& blame : report_.blamed) {
      if ((pair.a == blame.node || pair.b == blame.node) &&
          pair.reason.rfind("blamed on " + blame.node + ": ", 0) == 0)
        return blame.node;
    }
    return "";
  }

  // Blames `link` when the bad pairs crossing it (those not explained yet, and those of nodes
  // whose every bad pair crosses it) share no node and are at least half of those crossing it.
  bool try_link(std::uint32_t link) {
    std::vector<Suspect*> mine;
    std::map<std::string, std::size_t> by_node;  // blamed node -> its bad pairs crossing it
    for (auto& suspect : suspects_) {
      if (suspect.explained || !crosses(*suspect.route, link)) continue;
      mine.push_back(&suspect);
      if (!suspect.node.empty()) ++by_node[suspect.node];
    }
    std::set<std::string> taken_over;
    for (const auto& [node, count] : by_node) {
      if (count == bad_pairs_of(node)) taken_over.insert(node);
    }
    std::vector<SweepPair*> bad;
    Links shared;
    for (Suspect* suspect : mine) {
      if (!suspect->node.empty() && taken_over.count(suspect->node) == 0) continue;
      if (bad.empty()) {
        shared = *suspect->route;
      } else {
        Links both;
        std::set_intersection(shared.begin(), shared.end(), suspect->route->begin(),
                              suspect->route->end(), std::back_inserter(both));
        shared = std::move(both);
      }
      bad.push_back(suspect->pair);
    }
    if (bad.size() < 2 || node_in_all(bad)) return false;
    std::size_t across = 0;
    for (const auto& pair : report_.pairs) {
      const auto* route = routes_.route(pair.a, pair.b);
      if (pair.rail == 0 && pair.status != PairStatus::kNotRun && route != nullptr &&
          crosses_all(*route, shared))
        ++across;
    }
    if (2 * bad.size() < across) return false;
    for (const auto& node : taken_over) unblame(node);
    std::vector<std::string> names;
    for (std::uint32_t number : shared) names.push_back(routes_.name(number));
    std::sort(names.begin(), names.end());
    const std::string name = join(names, " and ");
    // The reason of the first in the report's order (bad is in it).
    const SweepPair& first = **std::min_element(bad.begin(), bad.end());
    report_.blamed_links.push_back(
        {name, std::to_string(bad.size()) + " of the " + std::to_string(across) +
                   " pairs whose routes cross it did not pass, and no node is in all of them: " +
                   first.reason});
    for (SweepPair* pair : bad) blame_pair(*pair, "link " + name);
    for (auto& suspect : suspects_) {
      if (std::find(bad.begin(), bad.end(), suspect.pair) != bad.end()) suspect.explained = true;
    }
    return true;
  }

  std::size_t bad_pairs_of(const std::string& node) const {
    return static_cast<std::size_t>(std::count_if(
        suspects_.begin(), suspects_.end(), [&](const Suspect& s) { return s.node == node; }));
  }

  // A node a link explains is no longer blamed: its pairs are the link's, or unexplained.
  void unblame(const std::string& node) {
    auto& blamed = report_.blamed;
    blamed.erase(std::remove_if(blamed.begin(), blamed.end(),
                                [&](const NodeBlame& blame) { return blame.node == node; }),
                 blamed.end());
    for (auto& suspect : suspects_) {
      if (suspect.node != node) continue;
      unblame_pair(*suspect.pair, node);
      suspect.node.clear();
    }
  }

  SweepReport& report_;
  const PairRoutes& routes_;
  std::vector<Suspect> suspects_;
};

}  // namespace

void blame_links(SweepReport& report, const PairRoutes& routes) {
  if (routes.empty()) return;
  LinkJudge judge(report, routes);
  if (!judge.gather()) return;
  while (judge.blame_next()) {
  }
}

}  // namespace ibkit
