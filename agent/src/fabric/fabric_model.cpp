#include "fabric/fabric_model.hpp"

#include <cstdio>

namespace ibkit {

const SubnetPort* Subnet::port_of(const SubnetPortRef& ref) const {
  if (ref.node >= nodes.size()) return nullptr;
  for (const auto& port : nodes[ref.node].ports) {
    if (port.number == ref.port) return &port;
  }
  return nullptr;
}

std::uint16_t performance_agent_lid(const SubnetNode& node, const SubnetPort& port) {
  if (node.type != SubnetNodeType::kSwitch) return port.lid;
  for (const auto& other : node.ports)
    if (other.number == 0) return other.lid;
  return port.lid;
}

std::string guid_text(std::uint64_t guid) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(guid));
  return text;
}

std::string node_name(const Subnet& fabric, std::size_t node) {
  if (node >= fabric.nodes.size()) return "node " + std::to_string(node);
  const SubnetNode& found = fabric.nodes[node];
  if (found.description.empty()) return guid_text(found.guid);
  return found.description + " (" + guid_text(found.guid) + ")";
}

std::string port_name(const Subnet& fabric, const SubnetPortRef& ref) {
  if (ref.node >= fabric.nodes.size()) return "port " + std::to_string(ref.port);
  return node_name(fabric, ref.node) + " port " + std::to_string(ref.port);
}

}  // namespace ibkit
