#include "fabric/routes.hpp"

namespace ibkit {

std::optional<std::vector<SubnetPortRef>> switch_hops(const Subnet& fabric,
                                                      const SubnetPortRef& from,
                                                      std::uint16_t lid) {
  const SubnetPort* start = fabric.port_of(from);
  if (start == nullptr || !start->remote) return std::nullopt;
  std::size_t at = start->remote->node;
  std::vector<SubnetPortRef> hops;
  for (std::size_t step = 0; step <= fabric.nodes.size(); ++step) {
    const SubnetNode& node = fabric.nodes.at(at);
    if (node.type != SubnetNodeType::kSwitch || lid >= node.forwarding.size()) return std::nullopt;
    const std::uint8_t out = node.forwarding[lid];
    if (out == 0)
      return node.ports.empty() || node.ports.front().lid != lid
                 ? std::nullopt
                 : std::optional(hops);  // the switch itself
    const SubnetPort* leaving = fabric.port_of({at, out});
    if (out == kNoForwardingPort || leaving == nullptr || !leaving->remote) return std::nullopt;
    const SubnetNode& next = fabric.nodes.at(leaving->remote->node);
    if (next.type != SubnetNodeType::kSwitch) {
      const SubnetPort* arrived = fabric.port_of(*leaving->remote);
      if (arrived == nullptr || arrived->lid != lid) return std::nullopt;
      return hops;
    }
    hops.push_back({at, out});
    at = leaving->remote->node;
  }
  return std::nullopt;
}

}  // namespace ibkit
