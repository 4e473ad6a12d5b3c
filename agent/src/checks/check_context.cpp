#include "checks/check_context.hpp"

#include <algorithm>

#include "sysfs/host.hpp"

namespace ibkit {

CheckContext gather_context(const SysfsRoot& root, const Config& config,
                            const ActiveMtus& active_mtus) {
  CheckContext context{root, config, read_hostname(root), scan_hcas(root), read_addresses(root)};
  apply_active_mtus(context.hcas, active_mtus);
  return context;
}

std::vector<FabricPort> fabric_ports(const CheckContext& context) {
  const Expectations& expect = context.config.expect;
  std::vector<FabricPort> ports;
  for (const auto& hca : context.hcas) {
    for (const auto& port : hca.ports) {
      if (expect.link_layer && port.link_layer != *expect.link_layer) continue;
      bool required = true;
      if (expect.ports.kind == PortSelection::Kind::kAny) required = false;
      if (expect.ports.kind == PortSelection::Kind::kListed) {
        const auto& listed = expect.ports.listed;
        required =
            std::find(listed.begin(), listed.end(), hca.subject(port.number)) != listed.end();
      }
      ports.push_back({&hca, &port, required});
    }
  }
  return ports;
}

}  // namespace ibkit
