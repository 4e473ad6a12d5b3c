#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sysfs/link_rate.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {

// A directory of counter files as read: each file's count, or what it held instead.
struct CounterDirectory {
  bool present = false;
  std::string problem;  // why the directory could not be listed; "" when it could
  std::map<std::string, std::uint64_t> values;
  // Counters that gave no count, with what was read instead: "\"lots\" is not a count",
  // "a FIFO", "unreadable: Input/output error", "N/A (no PMA)".
  std::map<std::string, std::string> problems;
};

// One port of an RDMA device, from sys/class/infiniband/<dev>/ports/<n>.
struct Port {
  int number = 0;
  std::string state;       // "ACTIVE", "DOWN", "INIT", "ARMED", "ACTIVE_DEFER"; "" unreadable
  std::string phys_state;  // "LinkUp", "Polling", "Disabled", ...; "" unreadable
  std::string rate_text;
  std::optional<LinkRate> rate;
  std::optional<std::uint64_t> lid;
  std::optional<std::uint64_t> sm_lid;
  std::string link_layer;  // "InfiniBand" or "Ethernet"
  // Active MTU in bytes (256-4096). Not in sysfs: sysfs/active_mtu.hpp fills it in from the
  // port attributes (live) or a fixture's ibv_devinfo.txt; unset when neither says.
  std::optional<int> active_mtu;
  std::vector<std::string> netdevs;
  std::string netdev_state;             // operstate of the first netdev: "up", "down", ...
  std::optional<bool> netdev_admin_up;  // IFF_UP of the first netdev (set up, carrier or not)
  std::map<std::string, std::uint64_t> counters;
  bool has_counters_dir = false;     // ports/N/counters is there (soft RoCE and some VFs lack it)
  std::string counters_dir_problem;  // why counters/ could not be listed; "" when it could
  std::map<std::string, std::string> counter_problems;  // as CounterDirectory::problems
  // ports/N/hw_counters: the driver's own transport counters (retransmissions, sequence errors,
  // timeouts; config/transport_counters.hpp names them), without its "lifespan" setting.
  CounterDirectory transport;
  std::vector<std::string> unreadable;  // attributes that were absent or not understood

  bool is_ethernet() const { return link_layer == "Ethernet"; }
  bool is_active() const { return state == "ACTIVE" && phys_state == "LinkUp"; }
};

// The PCI function behind an HCA: its driver, NUMA node and PCIe link training.
struct PciFunction {
  std::string address;  // "0000:01:00.0"
  std::string driver;   // "mlx5_core", "ib_mthca", ...
  std::string vendor;
  std::string device;
  std::optional<int> numa_node;  // nullopt when the platform reports none (-1)
  std::string current_link_speed;
  std::string max_link_speed;
  int current_link_width = 0;
  int max_link_width = 0;
};

// An RDMA device (HCA, RoCE NIC, or soft device such as rxe) and its ports.
struct Hca {
  std::string name;
  std::string hca_type;
  std::string firmware;
  std::string node_guid;
  std::string board_id;
  std::string parent_netdev;  // soft devices (rxe, siw) name the netdev they run on
  std::optional<PciFunction> pci;
  std::vector<Port> ports;

  std::string subject(int port) const { return name + "/" + std::to_string(port); }
};

// Lists every RDMA device under sys/class/infiniband in name order, with its ports. A device
// or port whose files cannot be read is still listed, with the gaps in Port::unreadable.
std::vector<Hca> scan_hcas(const SysfsRoot& root);

// One port of `device` as scan_hcas reads it, but without netdevs (Port::netdevs empty,
// netdev_state ""): its state, rate and counters for the snapshots around every test, at a
// fraction of the reads. nullopt when the device has no such port.
std::optional<Port> read_port_without_netdevs(const SysfsRoot& root, const std::string& device,
                                              int port);

}  // namespace ibkit
