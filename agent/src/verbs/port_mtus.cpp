#include "verbs/port_mtus.hpp"

#include <string>

#include <infiniband/verbs.h>

#include "verbs/device.hpp"
#include "verbs/owners.hpp"

namespace ibkit {

ActiveMtus query_active_mtus() {
  ActiveMtus mtus;
  int count = 0;
  DeviceListPtr list(ibv_get_device_list(&count));
  if (!list) return mtus;
  for (int i = 0; i < count; ++i) {
    ibv_device* device = list.get()[i];
    const std::string name = ibv_get_device_name(device);
    ContextPtr context(ibv_open_device(device));
    if (!context) continue;
    ibv_device_attr attr{};
    if (ibv_query_device(context.get(), &attr) != 0) continue;
    for (int port = 1; port <= attr.phys_port_cnt; ++port) {
      ibv_port_attr port_attr{};
      if (ibv_query_port(context.get(), static_cast<uint8_t>(port), &port_attr) != 0) continue;
      mtus[name + "/" + std::to_string(port)] = mtu_bytes(port_attr.active_mtu);
    }
  }
  return mtus;
}

ActiveMtus read_active_mtus(const SysfsRoot& root) {
  if (root.is_live_system()) return query_active_mtus();
  return read_captured_active_mtus(root).value_or(ActiveMtus{});
}

}  // namespace ibkit
