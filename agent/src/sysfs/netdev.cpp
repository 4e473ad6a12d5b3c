#include "sysfs/netdev.hpp"

#include <algorithm>
#include <limits>

#include "util/text.hpp"

namespace ibkit {
namespace {

// Port numbers are 8 bits in InfiniBand (and in the kernel's dev_port): anything above is
// corrupt, and would overflow an int on the way to the 1-based port.
constexpr int kMaxPortNumber = 255;

// An unsigned sysfs number that fits an int; nullopt when it is not a number or too large
// (an ARPHRD type or a port, never near 2^31).
std::optional<int> small_number(const std::string& text) {
  auto value = parse_unsigned(text);
  if (!value || *value > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    return std::nullopt;
  return static_cast<int>(*value);
}

}  // namespace

std::optional<Netdev> read_netdev(const SysfsRoot& root, const std::string& name) {
  const std::string dir = "sys/class/net/" + name;
  if (name.empty() || name.find('/') != std::string::npos || !root.is_directory(dir)) {
    return std::nullopt;
  }
  Netdev netdev;
  netdev.name = name;
  if (auto type = root.read(dir + "/type")) netdev.type = small_number(*type).value_or(0);
  netdev.operstate = root.read(dir + "/operstate").value_or("");
  if (auto mtu = root.read(dir + "/mtu")) netdev.mtu = parse_unsigned(*mtu);
  netdev.mode = root.read(dir + "/mode").value_or("");
  if (auto flags = root.read(dir + "/flags")) {
    if (auto value = parse_unsigned(*flags)) netdev.admin_up = (*value & 0x1) != 0;  // IFF_UP
  }
  return netdev;
}

namespace {

// The 1-based port a PCI function's netdev belongs to: dev_port is 0-based; kernels before
// 3.15 only set dev_id. A value too large to be a port is as good as unreadable.
std::optional<int> port_of_netdev(const SysfsRoot& root, const std::string& netdev_dir) {
  for (const char* attribute : {"/dev_port", "/dev_id"}) {
    auto text = root.read(netdev_dir + attribute);
    if (!text) continue;
    if (auto value = small_number(*text); value && *value < kMaxPortNumber) return *value + 1;
  }
  return std::nullopt;
}

std::vector<std::string> netdevs_from_gid_table(const SysfsRoot& root,
                                                const std::string& port_dir) {
  std::vector<std::string> names;
  for (const auto& index : root.list(port_dir + "/gid_attrs/ndevs")) {
    auto name = root.read(port_dir + "/gid_attrs/ndevs/" + index);
    if (name && !name->empty() && std::find(names.begin(), names.end(), *name) == names.end()) {
      names.push_back(*name);
    }
  }
  return names;
}

}  // namespace

std::vector<std::string> netdevs_for_port(const SysfsRoot& root, const std::string& device_dir,
                                          int port, bool ethernet_link_layer) {
  const std::string port_dir = device_dir + "/ports/" + std::to_string(port);
  if (ethernet_link_layer) {
    auto names = netdevs_from_gid_table(root, port_dir);
    if (!names.empty()) return names;
    if (auto parent = root.read(device_dir + "/parent"); parent && !parent->empty()) {
      return {*parent};
    }
  }

  const int wanted_type = ethernet_link_layer ? kArphrdEther : kArphrdInfiniband;
  std::vector<std::string> names;
  for (const auto& name : root.list(device_dir + "/device/net")) {
    const std::string netdev_dir = device_dir + "/device/net/" + name;
    auto type = root.read(netdev_dir + "/type");
    if (!type || parse_unsigned(*type) != static_cast<std::uint64_t>(wanted_type)) continue;
    if (port_of_netdev(root, netdev_dir) == port) names.push_back(name);
  }
  std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return (a.find('.') == std::string::npos) > (b.find('.') == std::string::npos);
  });
  return names;
}

}  // namespace ibkit
