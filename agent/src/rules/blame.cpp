#include "rules/blame.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "model/sweep_report.hpp"
#include "rules/fleet_verdict.hpp"

namespace ibkit {
namespace {

constexpr std::string_view kBlamedPrefix = "blamed on ";

// The reason a pair was skipped for a silent node starts with this and the node's name.
std::string skipped_prefix(const std::string& node) { return "not run: node " + node + " "; }

bool skipped_for(const SweepPair& pair, const std::string& node) {
  return pair.status == PairStatus::kNotRun && pair.reason.rfind(skipped_prefix(node), 0) == 0;
}

std::string counts_text(const std::map<std::string, int>& counts) {
  std::string text;
  for (const auto& [status, count] : counts) {
    text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  }
  return text;
}

// Which way the node's slow pairs are short, as the fleet rule found them each way:
// ", every way found short is one NODE sends" (or receives) when no slow pair is short the
// other way; ", every slow pair is short where NODE sends (K of K), the other way in J" when
// every slow pair is short that way and only some the other (a sender slowed at the source
// also delays the acknowledgements it sends back, so the way it receives can dip too); "" when
// neither way is short in every slow pair, or no way was judged (one-way tests, latency, a
// rule that was off).
std::string short_direction(const SweepReport& report, const std::string& node,
                            const std::vector<const SweepPair*>& pairs) {
  if (!report.fleet || !report.fleet->factors.on) return "";
  int slow = 0;
  int sends = 0;
  int receives = 0;
  for (const SweepPair* pair : pairs) {
    if (pair->status != PairStatus::kSlow) continue;
    const std::string& peer = pair->a == node ? pair->b : pair->a;
    const auto verdict = fleet_verdict(*pair, report.fleet->references, report.fleet->factors);
    bool sent_short = false;
    bool received_short = false;
    for (const auto& shortfall : verdict.shortfalls) {
      sent_short = sent_short || shortfall.figure.direction == node + " -> " + peer;
      received_short = received_short || shortfall.figure.direction == peer + " -> " + node;
    }
    if (!sent_short && !received_short) continue;
    ++slow;
    sends += sent_short ? 1 : 0;
    receives += received_short ? 1 : 0;
  }
  if (sends == receives || (sends != slow && receives != slow)) return "";
  const bool sending = sends == slow;
  const std::string way = node + (sending ? " sends" : " receives");
  const int other = sending ? receives : sends;
  if (other == 0) return ", every way found short is one " + way;
  return ", every slow pair is short where " + way + " (" + std::to_string(slow) + " of " +
         std::to_string(slow) + "), the other way in " + std::to_string(other);
}

struct Verdict {
  bool blamed = false;
  std::string reason;
};

// `mine`: the node's pairs, in the report's order.
Verdict judge_node(const SweepReport& report, const std::string& node,
                   std::vector<const SweepPair*> mine) {
  std::stable_sort(mine.begin(), mine.end(), [](const SweepPair* x, const SweepPair* y) {
    return x->round != y->round ? x->round < y->round : x->rail < y->rail;
  });
  auto first_bad =
      std::find_if(mine.begin(), mine.end(), [](const SweepPair* pair) { return pair_bad(*pair); });
  if (first_bad == mine.end()) return {};
  int bad = 0;
  std::map<std::string, int> counts;
  for (auto it = first_bad; it != mine.end(); ++it) {
    const SweepPair& pair = **it;
    if (pair_bad(pair)) {
      ++bad;
    } else if (!skipped_for(pair, node)) {
      if (pair.status == PairStatus::kNotRun) continue;  // left out by the sweep's deadline
      return {};
    }
    ++counts[std::string(pair_status_name(pair.status))];
  }
  if (bad < 2) return {};
  const bool from_start = first_bad == mine.begin();
  std::string reason =
      (from_start ? "every pair"
                  : "every pair from round " + std::to_string((*first_bad)->round) + " on") +
      " failed or was slow (" + counts_text(counts) +
      short_direction(report, node, {first_bad, mine.end()}) + "): " + (*first_bad)->reason;
  return {true, reason};
}

}  // namespace

bool pair_blamed(const SweepPair& pair) { return pair.reason.rfind(kBlamedPrefix, 0) == 0; }

void blame_pair(SweepPair& pair, const std::string& cause) {
  if (!pair_blamed(pair)) pair.reason = std::string(kBlamedPrefix) + cause + ": " + pair.reason;
}

void unblame_pair(SweepPair& pair, const std::string& cause) {
  const std::string prefix = std::string(kBlamedPrefix) + cause + ": ";
  if (pair.reason.rfind(prefix, 0) == 0) pair.reason.erase(0, prefix.size());
}

bool pair_bad(const SweepPair& pair) {
  return pair.status != PairStatus::kPass && pair.status != PairStatus::kNotRun;
}

void blame_nodes(SweepReport& report) {
  // Each node's pairs, found in one pass: a scan of every pair per node took 25 million name
  // comparisons at 4,096 nodes and their 6,144 pairs, half a billion on all-pairs of 1,024.
  std::unordered_map<std::string, std::vector<const SweepPair*>> pairs_of;
  for (const auto& pair : report.pairs) {
    pairs_of[pair.a].push_back(&pair);
    if (pair.b != pair.a) pairs_of[pair.b].push_back(&pair);
  }
  for (const auto& node : report.nodes) {
    auto mine = pairs_of.find(node);
    if (mine == pairs_of.end()) continue;
    Verdict verdict = judge_node(report, node, std::move(mine->second));
    if (!verdict.blamed) continue;
    report.blamed.push_back({node, verdict.reason});
  }
  if (report.blamed.empty()) return;
  std::unordered_map<std::string, std::size_t> order;  // blamed node -> its place in blamed
  for (std::size_t i = 0; i < report.blamed.size(); ++i) order.emplace(report.blamed[i].node, i);
  for (auto& pair : report.pairs) {
    if (!pair_bad(pair)) continue;
    // The node blamed first names the pair, as when each blamed node took its pairs in turn.
    const auto a = order.find(pair.a);
    const auto b = order.find(pair.b);
    if (a == order.end() && b == order.end()) continue;
    const bool a_first = b == order.end() || (a != order.end() && a->second < b->second);
    blame_pair(pair, a_first ? pair.a : pair.b);
  }
}

}  // namespace ibkit
