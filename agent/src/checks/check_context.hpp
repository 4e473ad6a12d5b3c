#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "sysfs/active_mtu.hpp"
#include "sysfs/addresses.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {

// What the checks look at: the machine's files, its devices read once, and the expectations.
struct CheckContext {
  const SysfsRoot& root;
  const Config& config;
  std::string hostname;
  std::vector<Hca> hcas;
  std::optional<std::vector<InterfaceAddress>> addresses;  // nullopt: cannot be known here
};

// Reads the devices, host name and addresses under `root` once for all checks; the ports'
// active MTUs come from `active_mtus` (they are not in sysfs: verbs/port_mtus.hpp).
CheckContext gather_context(const SysfsRoot& root, const Config& config,
                            const ActiveMtus& active_mtus = {});

// A port of the fabric this node is expected on: its link layer is the expected one (or no
// link layer is expected).
struct FabricPort {
  const Hca* hca;
  const Port* port;
  bool required;  // must be Active/LinkUp according to [expect].ports
};

// The fabric ports in device and port order. Ports of another link layer are left out.
std::vector<FabricPort> fabric_ports(const CheckContext& context);

}  // namespace ibkit
