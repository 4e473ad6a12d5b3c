#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sysfs/hca.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {

// The active MTU (bytes) of RDMA ports, by "device/port". The kernel does not show it in
// sysfs: on the live machine it comes from the port attributes (verbs/port_mtus.hpp,
// ibv_query_port, as ibv_devinfo prints it); a fixture tree holds the captured `ibv_devinfo`
// output as ibv_devinfo.txt instead.
using ActiveMtus = std::map<std::string, int>;

// The active_mtu of every port in `ibv_devinfo` output ("hca_id:", "port:", "active_mtu:
// 4096 (5)" lines); ports without a readable one are left out.
ActiveMtus parse_ibv_devinfo_mtus(std::string_view text);

// A fixture's ibv_devinfo.txt, parsed; nullopt on the live system or when the file is absent.
std::optional<ActiveMtus> read_captured_active_mtus(const SysfsRoot& root);

// Sets Port::active_mtu of every port `mtus` names; the others keep theirs.
void apply_active_mtus(std::vector<Hca>& hcas, const ActiveMtus& mtus);

// True for the MTUs an RDMA port can have: 256, 512, 1024, 2048, 4096.
bool is_rdma_mtu(long long bytes);

}  // namespace ibkit
