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

bool crosses(const Links& route, std::uint32_t link) {
  return std::binary_search(route.begin(), route.end(), link);
}

bool node_in_all(const std::vector<SweepPair*>& pairs, const std::string& node) {
  return std::all_of(pairs.begin(), pairs.end(),
                     [&](const SweepPair* pair) { return pair->a == node || pair->b == node; });
}

bool node_in_all(const std::vector<SweepPair*>& pairs) {
  return !pairs.empty() &&
         (node_in_all(pairs, pairs.front()->a) || node_in_all(pairs, pairs.front()->b));
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
    // Blamed nodes a link may clear: every bad pair of them slow, or with another blamed node.
    std::map<std::string, bool> clearable;
    for (const auto& blame : report_.blamed) clearable[blame.node] = true;
    for (auto& pair : report_.pairs) {
      if (!pair_bad(pair) || pair.status == PairStatus::kSlow) continue;
      for (const auto& [node, other] : {std::pair{&pair.a, &pair.b}, std::pair{&pair.b, &pair.a}}) {
        auto it = clearable.find(*node);
        if (it != clearable.end() && !node_blamed(*other)) it->second = false;
      }
    }
    for (auto& pair : report_.pairs) {
      if (!pair_bad(pair)) continue;
      std::string node;
      if (pair_blamed(pair)) {
        node = blamed_node(pair);
        // Pairs blamed on a link already, or on a node that failed or went silent, stay so: a
        // slow link does not stop a node answering.
        if (node.empty() || !clearable[node] || pair.status != PairStatus::kSlow) continue;
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
      if (try_link(link)) return true;
    }
    return false;
  }

  // Clears the nodes blamed whose every bad pair is some other cause's: its other node is
  // blamed, or it crosses a blamed link. With several faults at once, a healthy node's last two
  // pairs can meet a slow node and a slow link, and blame_nodes takes that for a node at fault.
  void clear_explained_nodes() {
    std::vector<std::string> cleared;
    for (const auto& blame : report_.blamed) {
      std::vector<std::pair<SweepPair*, std::string>> causes;
      bool explained = true;
      for (auto& pair : report_.pairs) {
        if (!pair_bad(pair) || (pair.a != blame.node && pair.b != blame.node)) continue;
        const std::string cause = other_cause(pair, blame.node, cleared);
        explained = explained && !cause.empty();
        causes.emplace_back(&pair, cause);
      }
      if (!explained || causes.empty()) continue;
      cleared.push_back(blame.node);
      for (auto& [pair, cause] : causes) {
        if (pair->reason.rfind("blamed on " + blame.node + ": ", 0) != 0) continue;
        unblame_pair(*pair, blame.node);
        blame_pair(*pair, cause);
      }
    }
    auto& blamed = report_.blamed;
    blamed.erase(std::remove_if(blamed.begin(), blamed.end(),
                                [&](const NodeBlame& blame) {
                                  return std::find(cleared.begin(), cleared.end(), blame.node) !=
                                         cleared.end();
                                }),
                 blamed.end());
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

  // Blames `link` on the word of the bad pairs crossing it not explained yet: those no node is
  // blamed for, those of nodes whose every bad pair crosses it (taken over), and those of other
  // blamed nodes. At least two of them, one not another node's; with the pairs across it that
  // another link explains, no node in all of them, and at least half of the pairs whose routes
  // cross it. A node is taken over only on the word of two of them without it: a slow node's
  // pairs all cross the cable its traffic comes down, and one pair slow for another reason, or
  // pairs another link explains, must not clear it. A node blamed for pairs across several
  // slow links is cleared once they are all blamed (clear_explained_nodes).
  bool try_link(std::uint32_t link) {
    if (blamed_.count(link) != 0) return false;
    std::vector<Suspect*> mine;
    std::map<std::string, std::size_t> by_node;  // blamed node -> its bad pairs crossing it
    for (auto& suspect : suspects_) {
      if (!crosses(*suspect.route, link)) continue;
      mine.push_back(&suspect);
      if (!suspect.node.empty()) ++by_node[suspect.node];
    }
    std::set<std::string> taken_over;
    for (const auto& [node, count] : by_node) {
      if (count >= 2 && count == bad_pairs_of(node)) taken_over.insert(node);
    }
    std::vector<SweepPair*> bad;        // every bad pair across it
    std::vector<SweepPair*> witnesses;  // those not explained yet
    std::vector<Suspect*> own;          // witnesses it would be blamed for
    Links shared;
    for (Suspect* suspect : mine) {
      // Named with the links every bad pair across it crosses: the fewest the pairs allow.
      if (bad.empty()) {
        shared = *suspect->route;
      } else {
        Links both;
        std::set_intersection(shared.begin(), shared.end(), suspect->route->begin(),
                              suspect->route->end(), std::back_inserter(both));
        shared = std::move(both);
      }
      bad.push_back(suspect->pair);
      witnesses.push_back(suspect->pair);
      if (suspect->explained) continue;
      if (!suspect->node.empty() && taken_over.count(suspect->node) == 0) continue;
      own.push_back(suspect);
    }
    if (own.empty() || witnesses.size() < 2 || node_in_all(bad)) return false;
    for (const auto& node : taken_over) {
      const auto without =
          std::count_if(witnesses.begin(), witnesses.end(),
                        [&](const SweepPair* pair) { return pair->a != node && pair->b != node; });
      if (without < 2) return false;
    }
    std::size_t across = 0;
    std::size_t all_bad = 0;
    for (const auto& pair : report_.pairs) {
      const auto* route = routes_.route(pair.a, pair.b);
      if (pair.rail != 0 || pair.status == PairStatus::kNotRun || route == nullptr ||
          !crosses(*route, link))
        continue;
      ++across;
      all_bad += pair_bad(pair) ? 1 : 0;  // a dead partner's pair too: it is no good pair
    }
    if (2 * all_bad < across) return false;
    for (const auto& node : taken_over) unblame(node);
    std::vector<std::string> names;
    for (std::uint32_t number : shared) names.push_back(routes_.name(number));
    std::sort(names.begin(), names.end());
    const std::string name = join(names, " and ");
    for (std::uint32_t number : shared) blamed_.emplace(number, name);
    // The reason of the first in the report's order (bad is in it).
    const SweepPair& first = **std::min_element(bad.begin(), bad.end());
    report_.blamed_links.push_back(
        {name, std::to_string(all_bad) + " of the " + std::to_string(across) +
                   " pairs whose routes cross it did not pass, and no node is in all of them: " +
                   first.reason});
    for (Suspect* suspect : own) {
      blame_pair(*suspect->pair, "link " + name);
      suspect->explained = true;
    }
    return true;
  }

  std::size_t bad_pairs_of(const std::string& node) const {
    return static_cast<std::size_t>(std::count_if(
        suspects_.begin(), suspects_.end(), [&](const Suspect& s) { return s.node == node; }));
  }

  // What else a bad pair of `node` is blamed on: its other node when that one is blamed (and
  // not cleared), else "link NAME" of a blamed link it crosses; "" when nothing.
  std::string other_cause(const SweepPair& pair, const std::string& node,
                          const std::vector<std::string>& cleared) const {
    const std::string& other = pair.a == node ? pair.b : pair.a;
    if (node_blamed(other) && std::find(cleared.begin(), cleared.end(), other) == cleared.end())
      return other;
    const Links* route = routes_.route(pair.a, pair.b);
    if (pair.rail != 0 || route == nullptr) return "";
    for (std::uint32_t link : *route) {
      if (auto it = blamed_.find(link); it != blamed_.end()) return "link " + it->second;
    }
    return "";
  }

  bool node_blamed(const std::string& node) const {
    return std::any_of(report_.blamed.begin(), report_.blamed.end(),
                       [&](const NodeBlame& blame) { return blame.node == node; });
  }

  // A node a link explains is no longer blamed: its slow pairs are the link's, the rest go to
  // their other node when that one is blamed.
  void unblame(const std::string& node) {
    auto& blamed = report_.blamed;
    blamed.erase(std::remove_if(blamed.begin(), blamed.end(),
                                [&](const NodeBlame& blame) { return blame.node == node; }),
                 blamed.end());
    for (auto& suspect : suspects_) {
      if (suspect.node == node) suspect.node.clear();
    }
    for (auto& pair : report_.pairs) {
      if (pair.reason.rfind("blamed on " + node + ": ", 0) != 0) continue;
      unblame_pair(pair, node);
      const std::string& other = pair.a == node ? pair.b : pair.a;
      if (node_blamed(other)) blame_pair(pair, other);
    }
  }

  SweepReport& report_;
  const PairRoutes& routes_;
  std::vector<Suspect> suspects_;
  std::map<std::uint32_t, std::string> blamed_;  // link -> the blame that names it
};

}  // namespace

void blame_links(SweepReport& report, const PairRoutes& routes) {
  if (routes.empty()) return;
  LinkJudge judge(report, routes);
  if (!judge.gather()) return;
  while (judge.blame_next()) {
  }
  judge.clear_explained_nodes();
}

}  // namespace ibkit
