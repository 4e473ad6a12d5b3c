#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// The names a pair report may give a sweep's nodes by. A sweep files the report node a wrote
// under the pair a -> b: its host is a's own host name (the hosts file's name under --launch,
// maybe another where the file gave an address) and its peer the address b was reached at (b's
// name, or b's name without the ":PORT" its hosts-file line gave).
class SweepNodeNames {
 public:
  explicit SweepNodeNames(const std::vector<std::string>& nodes);

  // "" when `report` may be the report of `pair`; else, in one line with its names as
  // terminal_safe shows them, why not: "it is the report of lab1 -> lab3, not of lab2 -> lab4".
  // A report is refused when its host names a node of the sweep other than pair.a, or its peer
  // one other than pair.b (the report of another pair, or of this one the other way round); a
  // name no node goes by (a host name where the hosts file gave an address) refuses nothing, nor
  // does a pair that is not of two nodes of the sweep (check_sweep_consistency names it).
  std::string misfiled(const SweepPair& pair, const PairReport& report) const;

 private:
  // Whether `name` is a name of some node, and not one of `node`.
  bool names_another(std::string_view name, const std::string& node) const;

  // A name -> the nodes that go by it.
  std::unordered_map<std::string, std::vector<std::string>> nodes_by_name_;
};

}  // namespace ibkit
