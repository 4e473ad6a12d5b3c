#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fabric/fabric_model.hpp"

namespace ibkit {

// The switch-to-switch hops of the path from a host's port `from` to `lid`, as the switches'
// forwarding tables send it: each hop as the switch port it leaves by. Empty when both ends
// are under one switch; nullopt when `from` has no switch at its far end, a switch on the way
// has no table or no entry for `lid`, an entry leads to no switch and no port with that LID,
// or the path is longer than there are switches (a loop).
std::optional<std::vector<SubnetPortRef>> switch_hops(const Subnet& fabric,
                                                      const SubnetPortRef& from, std::uint16_t lid);

}  // namespace ibkit
