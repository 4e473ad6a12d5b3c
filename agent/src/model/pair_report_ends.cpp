#include "model/pair_report_ends.hpp"

#include <algorithm>

#include "util/text.hpp"

namespace ibkit {
namespace {

// "lab1" for "lab1:18515", "10.0.0.1" for "10.0.0.1:18515": the address a node named with a
// port was reached at; "" when `node` does not end in ":PORT".
std::string_view address_of(std::string_view node) {
  const auto colon = node.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == node.size()) return {};
  const std::string_view port = node.substr(colon + 1);
  if (!std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {};
  return node.substr(0, colon);
}

}  // namespace

SweepNodeNames::SweepNodeNames(const std::vector<std::string>& nodes) {
  for (const auto& node : nodes) {
    nodes_by_name_[node].push_back(node);
    if (const auto address = address_of(node); !address.empty())
      nodes_by_name_[std::string(address)].push_back(node);
  }
}

bool SweepNodeNames::names_another(std::string_view name, const std::string& node) const {
  const auto found = nodes_by_name_.find(std::string(name));
  if (found == nodes_by_name_.end()) return false;
  return std::find(found->second.begin(), found->second.end(), node) == found->second.end();
}

std::string SweepNodeNames::misfiled(const SweepPair& pair, const PairReport& report) const {
  // A pair that is not of two nodes is check_sweep_consistency's to name.
  if (pair.a == pair.b || !nodes_by_name_.contains(pair.a) || !nodes_by_name_.contains(pair.b))
    return "";
  if (!names_another(report.host, pair.a) && !names_another(report.peer, pair.b)) return "";
  return "it is the report of " + terminal_safe(report.host) + " -> " + terminal_safe(report.peer) +
         ", not of " + terminal_safe(pair.a) + " -> " + terminal_safe(pair.b) + " rail " +
         std::to_string(pair.rail);
}

}  // namespace ibkit
