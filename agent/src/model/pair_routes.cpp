#include "model/pair_routes.hpp"

#include <algorithm>

namespace ibkit {

std::pair<std::string, std::string> route_key(const std::string& a, const std::string& b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

std::uint32_t PairRoutes::link(const std::string& name) {
  const auto [at, added] = number_of_.emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (added) names_.push_back(name);
  return at->second;
}

void PairRoutes::set_route(const std::string& a, const std::string& b,
                           std::vector<std::uint32_t> links) {
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  links.shrink_to_fit();
  auto& kept = routes_[route_key(a, b)];
  numbers_ = numbers_ - kept.size() + links.size();
  kept = std::move(links);
}

void PairRoutes::set_route(const std::string& a, const std::string& b,
                           const std::vector<std::string>& names) {
  std::vector<std::uint32_t> links;
  links.reserve(names.size());
  for (const auto& name : names) links.push_back(link(name));
  set_route(a, b, std::move(links));
}

const std::vector<std::uint32_t>* PairRoutes::route(const std::string& a,
                                                    const std::string& b) const {
  const auto found = routes_.find(route_key(a, b));
  return found == routes_.end() ? nullptr : &found->second;
}

std::vector<std::string> PairRoutes::route_names(const std::string& a, const std::string& b) const {
  std::vector<std::string> names;
  if (const auto* links = route(a, b)) {
    for (std::uint32_t link : *links) names.push_back(names_[link]);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ibkit
