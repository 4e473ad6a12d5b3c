#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sysfs/sysfs_root.hpp"

namespace ibkit {

inline constexpr int kArphrdEther = 1;
inline constexpr int kArphrdInfiniband = 32;

// A network interface as sys/class/net/<name> shows it.
struct Netdev {
  std::string name;
  int type = 0;           // ARPHRD_*: 32 for IPoIB, 1 for Ethernet
  std::string operstate;  // "up", "down", "unknown", ...
  std::optional<std::uint64_t> mtu;
  std::string mode;              // IPoIB only: "connected" or "datagram"
  std::optional<bool> admin_up;  // IFF_UP in flags: set up by an administrator, carrier or not
};

// Reads sys/class/net/<name>; nullopt when the interface does not exist.
std::optional<Netdev> read_netdev(const SysfsRoot& root, const std::string& name);

// Names the netdevs of port `port` of the RDMA device at `device_dir`
// (sys/class/infiniband/<dev>), the way ibdev2netdev does: for RoCE the GID table's netdev
// (or the soft device's parent), for InfiniBand the IPoIB interfaces of the PCI function whose
// dev_port matches. Parent interfaces come before P_Key children. Empty when there is none.
std::vector<std::string> netdevs_for_port(const SysfsRoot& root, const std::string& device_dir,
                                          int port, bool ethernet_link_layer);

}  // namespace ibkit
