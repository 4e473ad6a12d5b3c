#include "verbs/rails.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <memory>

#include <infiniband/verbs.h>

#include "util/text.hpp"
#include "verbs/owners.hpp"
#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

// A device with an Active port: its name, its first Active port's link layer, those ports.
struct ActiveDevice {
  std::string name;
  bool infiniband = false;
  std::vector<int> ports;
};

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t end_a = i;
      std::size_t end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      auto run_a = std::stoull(a.substr(i, std::min<std::size_t>(end_a - i, 18)));
      auto run_b = std::stoull(b.substr(j, std::min<std::size_t>(end_b - j, 18)));
      if (run_a != run_b) return run_a < run_b;
      i = end_a;
      j = end_b;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The device's Active ports and its first Active port's link layer; no ports when none is
// Active.
Expected<ActiveDevice> query_active(ibv_device* device) {
  ActiveDevice active{ibv_get_device_name(device), false, {}};
  ContextPtr context(ibv_open_device(device));
  if (!context) return verbs_error("ibv_open_device " + active.name, errno);
  ibv_device_attr attr{};
  if (int rc = ibv_query_device(context.get(), &attr); rc != 0) {
    return verbs_error("ibv_query_device " + active.name, rc);
  }
  for (int port = 1; port <= attr.phys_port_cnt; ++port) {
    ibv_port_attr port_attr{};
    if (int rc = ibv_query_port(context.get(), static_cast<uint8_t>(port), &port_attr); rc != 0) {
      return verbs_error("ibv_query_port " + active.name, rc);
    }
    if (port_attr.state != IBV_PORT_ACTIVE) continue;
    if (active.ports.empty()) active.infiniband = port_attr.link_layer != IBV_LINK_LAYER_ETHERNET;
    active.ports.push_back(port);
  }
  return active;
}

// The rails: devices with an Active port, only the InfiniBand ones when there are any, in
// natural name order. Each device is opened once.
Expected<std::vector<ActiveDevice>> rails() {
  int count = 0;
  DeviceListPtr list(ibv_get_device_list(&count));
  if (!list && errno != ENOSYS) return verbs_error("ibv_get_device_list", errno);
  std::vector<ActiveDevice> active;
  for (int i = 0; list && i < count; ++i) {
    auto device = query_active(list.get()[i]);
    if (!device) return device.error();
    if (!device->ports.empty()) active.push_back(std::move(*device));
  }
  const bool any_infiniband = std::any_of(
      active.begin(), active.end(), [](const ActiveDevice& device) { return device.infiniband; });
  std::erase_if(active,
                [&](const ActiveDevice& device) { return any_infiniband && !device.infiniband; });
  std::sort(active.begin(), active.end(), [](const ActiveDevice& x, const ActiveDevice& y) {
    return natural_less(x.name, y.name);
  });
  return active;
}

}  // namespace

void sort_naturally(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end(), natural_less);
}

Expected<std::vector<std::string>> rail_devices() {
  auto devices = rails();
  if (!devices) return devices.error();
  std::vector<std::string> names;
  for (const auto& device : *devices) names.push_back(device.name);
  return names;
}

Expected<std::string> rail_device(int rail) {
  auto rails = rail_devices();
  if (!rails) return rails.error();
  if (rail >= 0 && static_cast<std::size_t>(rail) < rails->size()) {
    return (*rails)[static_cast<std::size_t>(rail)];
  }
  if (rails->empty()) {
    return Error{"rail " + std::to_string(rail) +
                     ": no RDMA device with an Active port on this node (ibkit check says why)",
                 true};
  }
  return Error{"rail " + std::to_string(rail) + ": this node has " + std::to_string(rails->size()) +
               " rail(s): " + join(*rails, ", ")};
}

Expected<std::vector<RailPort>> rail_ports() {
  auto devices = rails();
  if (!devices) return devices.error();
  std::vector<RailPort> ports;
  for (const auto& device : *devices) {
    for (int port : device.ports) ports.push_back({device.name, port});
  }
  return ports;
}

}  // namespace ibkit
