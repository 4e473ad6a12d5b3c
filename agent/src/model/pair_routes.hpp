#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ibkit {

// The pair of node names a route is kept under, the same whichever node drove.
std::pair<std::string, std::string> route_key(const std::string& a, const std::string& b);

// The switch-to-switch links each pair's traffic crosses, in either direction. Known only for a
// sweep scheduled from the topology. Each link's name ("leaf-1 (0x...) port 13 <-> spine-2
// (0x...) port 1") is kept once (and once more as the key it is looked up by), whatever number
// of pairs cross it; a pair keeps the links' numbers. A line of 4,096 switches whose pairs each
// cross half of it holds 4,095 names, not millions of copies of them.
class PairRoutes {
 public:
  // The number of the link named `name`, kept the first time it is given.
  std::uint32_t link(const std::string& name);

  // Pair (a, b) crosses `links` (numbers link() gave; any order, repeats allowed): replaces
  // what it crossed before.
  void set_route(const std::string& a, const std::string& b, std::vector<std::uint32_t> links);
  // The same, by the links' names.
  void set_route(const std::string& a, const std::string& b, const std::vector<std::string>& names);

  // The links pair (a, b) crosses, by number, ascending; nullptr when its route is not known.
  const std::vector<std::uint32_t>* route(const std::string& a, const std::string& b) const;
  // The names of those links, sorted; empty when not known.
  std::vector<std::string> route_names(const std::string& a, const std::string& b) const;
  // The name of link `number`.
  const std::string& name(std::uint32_t number) const { return names_.at(number); }

  bool empty() const { return routes_.empty(); }
  std::size_t pairs() const { return routes_.size(); }
  // What the routes hold: the names kept, and the link numbers of all pairs together.
  std::size_t names_kept() const { return names_.size(); }
  std::size_t numbers_kept() const { return numbers_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> number_of_;
  std::map<std::pair<std::string, std::string>, std::vector<std::uint32_t>> routes_;
  std::size_t numbers_ = 0;
};

}  // namespace ibkit
