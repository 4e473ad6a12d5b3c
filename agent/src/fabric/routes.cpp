#include "fabric/routes.hpp"

namespace ibkit {

RouteStep route_step(const Subnet& fabric, std::size_t at, std::uint16_t lid) {
  const SubnetNode& node = fabric.nodes.at(at);
  if (node.type != SubnetNodeType::kSwitch || lid >= node.forwarding.size()) return {};
  const std::uint8_t out = node.forwarding[lid];
  if (out == 0) {
    if (node.ports.empty() || node.ports.front().lid != lid) return {};
    return {RouteStep::Kind::kArrived, {}, 0};  // the switch itself
  }
  const SubnetPort* leaving = fabric.port_of({at, out});
  if (out == kNoForwardingPort || leaving == nullptr || !leaving->remote) return {};
  const std::size_t next = leaving->remote->node;
  if (fabric.nodes.at(next).type != SubnetNodeType::kSwitch) {
    const SubnetPort* arrived = fabric.port_of(*leaving->remote);
    if (arrived == nullptr || arrived->lid != lid) return {};
    return {RouteStep::Kind::kArrived, {}, 0};
  }
  return {RouteStep::Kind::kOnward, {at, out}, next};
}

std::optional<std::vector<SubnetPortRef>> switch_hops(const Subnet& fabric,
                                                      const SubnetPortRef& from,
                                                      std::uint16_t lid) {
  const SubnetPort* start = fabric.port_of(from);
  if (start == nullptr || !start->remote) return std::nullopt;
  std::size_t at = start->remote->node;
  std::vector<SubnetPortRef> hops;
  for (std::size_t step = 0; step <= fabric.nodes.size(); ++step) {
    const RouteStep next = route_step(fabric, at, lid);
    if (next.kind == RouteStep::Kind::kArrived) return hops;
    if (next.kind == RouteStep::Kind::kNowhere) return std::nullopt;
    hops.push_back(next.hop);
    at = next.next;
  }
  return std::nullopt;
}

}  // namespace ibkit
