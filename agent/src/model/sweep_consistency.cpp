#include "model/sweep_consistency.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "model/sweep_report.hpp"

namespace ibkit {
namespace {

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

std::string at(const char* field, std::size_t index) {
  return std::string(field) + "[" + std::to_string(index) + "]";
}

// The nodes by name; fails on a name listed twice.
Expected<std::unordered_map<std::string, std::size_t>> index_nodes(
    const std::vector<std::string>& nodes) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (auto [found, added] = index.emplace(nodes[i], i); !added) {
      return Error{"field " + at("nodes", i) + " " + quoted(nodes[i]) + " repeats " +
                   at("nodes", found->second)};
    }
  }
  return index;
}

Expected<Done> check_pairs(const SweepReport& report,
                           const std::unordered_map<std::string, std::size_t>& index) {
  // (rail, lower node, higher node) -> the pair that joins them
  std::map<std::tuple<int, std::size_t, std::size_t>, std::size_t> joined;
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    const SweepPair& pair = report.pairs[i];
    const auto a = index.find(pair.a);
    if (a == index.end())
      return Error{"field " + at("pairs", i) + ".a " + quoted(pair.a) + " is not one of nodes"};
    const auto b = index.find(pair.b);
    if (b == index.end())
      return Error{"field " + at("pairs", i) + ".b " + quoted(pair.b) + " is not one of nodes"};
    if (a->second == b->second)
      return Error{"field " + at("pairs", i) + " pairs " + pair.a + " with itself"};
    const auto key =
        std::make_tuple(pair.rail, std::min(a->second, b->second), std::max(a->second, b->second));
    if (auto [found, added] = joined.emplace(key, i); !added) {
      return Error{"field " + at("pairs", i) + " repeats " + at("pairs", found->second) + " (" +
                   pair.a + " and " + pair.b + " on rail " + std::to_string(pair.rail) + ")"};
    }
  }
  return Done{};
}

Expected<Done> check_blamed(const SweepReport& report,
                            const std::unordered_map<std::string, std::size_t>& index) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < report.blamed.size(); ++i) {
    const std::string& node = report.blamed[i].node;
    if (index.count(node) == 0)
      return Error{"field " + at("blamed", i) + ".node " + quoted(node) + " is not one of nodes"};
    if (!seen.insert(node).second)
      return Error{"field " + at("blamed", i) + ".node " + quoted(node) + " is blamed twice"};
  }
  return Done{};
}

}  // namespace

Expected<Done> check_report_size(std::size_t nodes, int rails) {
  if (nodes > kMaxSweepNodes) {
    return Error{std::to_string(nodes) + " nodes; a report holds at most " +
                 std::to_string(kMaxSweepNodes) + ": sweep fewer nodes at a time"};
  }
  const std::size_t cells = nodes * nodes * static_cast<std::size_t>(std::max(rails, 1));
  if (cells > kMaxMatrixCells) {
    return Error{std::to_string(nodes) + " nodes on " + std::to_string(rails) + " rails make " +
                 std::to_string(cells) + " matrix cells; a report holds at most " +
                 std::to_string(kMaxMatrixCells) +
                 " (4096 nodes on 1 rail, 1448 on 8, 512 on 64): sweep fewer nodes or rails at "
                 "a time"};
  }
  return Done{};
}

Expected<Done> check_sweep_consistency(const SweepReport& report) {
  if (auto size = check_report_size(report.nodes.size(), report.rails); !size)
    return Error{"field nodes: " + size.error().message};
  auto index = index_nodes(report.nodes);
  if (!index) return index.error();
  if (auto pairs = check_pairs(report, *index); !pairs) return pairs;
  return check_blamed(report, *index);
}

}  // namespace ibkit
