#include "rules/link_blame.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "rules/blame.hpp"
#include "util/text.hpp"

namespace ibkit {

namespace {

using Links = std::vector<std::uint32_t>;

const Links* route_of(const PairRoutes& routes, const SweepPair& pair) {
  return routes.route(pair.a, pair.b);
}

bool crosses_all(const Links& route, const Links& links) {
  return std::includes(route.begin(), route.end(), links.begin(), links.end());
}

bool node_in_all(const std::vector<SweepPair*>& pairs, const std::string& node) {
  return std::all_of(pairs.begin(), pairs.end(),
                     [&](const SweepPair* pair) { return pair->a == node || pair->b == node; });
}

}  // namespace

void blame_links(SweepReport& report, const PairRoutes& routes) {
  if (routes.empty()) return;
  std::vector<SweepPair*> bad;
  for (auto& pair : report.pairs) {
    if (pair_bad(pair) && !pair_blamed(pair)) bad.push_back(&pair);
  }
  if (bad.size() < 2) return;
  Links shared;
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const auto* route = route_of(routes, *bad[i]);
    if (bad[i]->rail != 0 || route == nullptr) return;
    if (i == 0) {
      shared = *route;
      continue;
    }
    Links both;
    std::set_intersection(shared.begin(), shared.end(), route->begin(), route->end(),
                          std::back_inserter(both));
    shared = std::move(both);
  }
  if (shared.empty()) return;
  if (std::any_of(report.nodes.begin(), report.nodes.end(),
                  [&](const std::string& node) { return node_in_all(bad, node); }))
    return;
  std::size_t across = 0;
  for (const auto& pair : report.pairs) {
    const auto* route = route_of(routes, pair);
    if (pair.rail == 0 && pair.status != PairStatus::kNotRun && route != nullptr &&
        crosses_all(*route, shared))
      ++across;
  }
  if (2 * bad.size() < across) return;
  std::vector<std::string> names;
  for (std::uint32_t number : shared) names.push_back(routes.name(number));
  std::sort(names.begin(), names.end());
  const std::string link = join(names, " and ");
  report.blamed_links.push_back(
      {link, std::to_string(bad.size()) + " of the " + std::to_string(across) +
                 " pairs whose routes cross it did not pass, and no node is in all of them: " +
                 bad.front()->reason});
  for (SweepPair* pair : bad) blame_pair(*pair, "link " + link);
}

}  // namespace ibkit
