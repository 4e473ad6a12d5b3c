#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fabric/fabric_model.hpp"

namespace ibkit {

// Where the switch at node `at` sends `lid`, as its forwarding table says.
struct RouteStep {
  enum class Kind {
    kArrived,  // out of a port whose far end has that LID, or to the switch itself
    kOnward,   // out of `hop` to the switch `next`
    kNowhere,  // `at` is no switch, has no table or no entry for `lid`, the entry leads to no
               // cable, or to a port with another LID
  };
  Kind kind = Kind::kNowhere;
  SubnetPortRef hop;
  std::size_t next = 0;
};
RouteStep route_step(const Subnet& fabric, std::size_t at, std::uint16_t lid);

// The switch-to-switch hops of the path from a host's port `from` to `lid`, as the switches'
// forwarding tables send it: each hop as the switch port it leaves by. Empty when both ends
// are under one switch; nullopt when `from` has no switch at its far end, a step goes nowhere
// (route_step), or the path is longer than there are switches (a loop).
std::optional<std::vector<SubnetPortRef>> switch_hops(const Subnet& fabric,
                                                      const SubnetPortRef& from, std::uint16_t lid);

}  // namespace ibkit
