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

std::string guid_text(std::uint64_t guid) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(guid));
  return text;
}

std::string port_name(const Subnet& fabric, const SubnetPortRef& ref) {
  if (ref.node >= fabric.nodes.size()) return "port " + std::to_string(ref.port);
  const SubnetNode& node = fabric.nodes[ref.node];
  const std::string who = node.description.empty()
                              ? guid_text(node.guid)
                              : node.description + " (" + guid_text(node.guid) + ")";
  return who + " port " + std::to_string(ref.port);
}

}  // namespace ibkit
