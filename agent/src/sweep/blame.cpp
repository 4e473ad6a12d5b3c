#include "sweep/blame.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "model/sweep_report.hpp"
#include "sweep/fleet_verdict.hpp"

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

// ", every way found short is one NODE sends" (or receives), when the fleet rule found only
// ways of one direction short in the node's slow pairs; "" when it found both, or no way at all
// (one-way tests, latency, a rule that was off).
std::string short_direction(const SweepReport& report, const std::string& node,
                            const std::vector<const SweepPair*>& pairs) {
  if (!report.fleet || !report.fleet->factors.on) return "";
  bool sends = false;
  bool receives = false;
  for (const SweepPair* pair : pairs) {
    if (pair->status != PairStatus::kSlow) continue;
    const std::string& peer = pair->a == node ? pair->b : pair->a;
    const auto verdict = fleet_verdict(*pair, report.fleet->references, report.fleet->factors);
    for (const auto& shortfall : verdict.shortfalls) {
      sends = sends || shortfall.figure.direction == node + " -> " + peer;
      receives = receives || shortfall.figure.direction == peer + " -> " + node;
    }
  }
  if (sends == receives) return "";
  return ", every way found short is one " + node + (sends ? " sends" : " receives");
}

struct Verdict {
  bool blamed = false;
  std::string reason;
};

Verdict judge_node(const SweepReport& report, const std::string& node) {
  std::vector<const SweepPair*> mine;
  for (const auto& pair : report.pairs) {
    if (pair.a == node || pair.b == node) mine.push_back(&pair);
  }
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

bool pair_bad(const SweepPair& pair) {
  return pair.status != PairStatus::kPass && pair.status != PairStatus::kNotRun;
}

void blame_nodes(SweepReport& report) {
  for (const auto& node : report.nodes) {
    Verdict verdict = judge_node(report, node);
    if (!verdict.blamed) continue;
    report.blamed.push_back({node, verdict.reason});
  }
  for (const auto& blame : report.blamed) {
    for (auto& pair : report.pairs) {
      if ((pair.a == blame.node || pair.b == blame.node) && pair_bad(pair))
        blame_pair(pair, blame.node);
    }
  }
}

}  // namespace ibkit
