#include "checks/ipoib_checks.hpp"

#include <set>

#include "sysfs/netdev.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::uint64_t kConnectedMtu = 65520;
constexpr std::uint64_t kDatagramMtu4k = 4092;
constexpr std::uint64_t kDatagramMtu2k = 2044;

bool has_routable_address(const std::vector<InterfaceAddress>& addresses, const std::string& name) {
  for (const auto& address : addresses) {
    if (address.interface == name && !starts_with_ignoring_case(address.address, "fe80:"))
      return true;
  }
  return false;
}

void check_mode_and_mtu(const CheckContext& context, const Hca& hca, const Netdev& netdev,
                        const std::string& subject, CheckResults& results) {
  const Expectations& expect = context.config.expect;
  std::string wanted_mode =
      expect.ipoib_mode == "auto" ? preferred_ipoib_mode(hca) : expect.ipoib_mode;
  const std::string observed_mode = netdev.mode.empty() ? "unknown" : netdev.mode;
  if (wanted_mode == "any" || wanted_mode.empty()) {
    results.push_back({"ipoib.mode", subject, Status::kSkip, observed_mode, "",
                       wanted_mode.empty()
                           ? "cannot tell which IPoIB mode this HCA's driver wants: set "
                             "[expect].ipoib_mode"
                           : "[expect].ipoib_mode = \"any\""});
  } else {
    CheckResult result{"ipoib.mode", subject, Status::kPass, observed_mode, wanted_mode, ""};
    if (netdev.mode != wanted_mode) {
      result.status = Status::kFail;
      result.hint = wanted_mode == "connected"
                        ? "datagram mode is slow on this HCA: echo connected > /sys/class/net/" +
                              netdev.name +
                              "/mode (and persistently: the ipoib role or a pre-up line)"
                        : "this HCA runs enhanced IPoIB, which is datagram only: remove the "
                          "connected-mode setting for " +
                              netdev.name;
    }
    results.push_back(std::move(result));
  }

  const std::uint64_t mtu = netdev.mtu.value_or(0);
  const std::string observed_mtu = netdev.mtu ? std::to_string(mtu) : "unknown";
  const std::string mode = netdev.mode.empty() ? wanted_mode : netdev.mode;
  if (expect.ipoib_mtu != 0) {
    bool ok = mtu == expect.ipoib_mtu;
    results.push_back({"ipoib.mtu", subject, ok ? Status::kPass : Status::kFail, observed_mtu,
                       std::to_string(expect.ipoib_mtu),
                       ok ? ""
                          : "ip link set " + netdev.name + " mtu " +
                                std::to_string(expect.ipoib_mtu) +
                                " (and persistently in the interface's configuration)"});
  } else if (mode == "connected") {
    bool ok = mtu == kConnectedMtu;
    results.push_back({"ipoib.mtu", subject, ok ? Status::kPass : Status::kWarn, observed_mtu,
                       std::to_string(kConnectedMtu),
                       ok ? ""
                          : "connected mode runs best with MTU 65520: ip link set " + netdev.name +
                                " mtu 65520"});
  } else if (mode == "datagram") {
    Status status = mtu == kDatagramMtu4k   ? Status::kPass
                    : mtu == kDatagramMtu2k ? Status::kWarn
                                            : Status::kFail;
    results.push_back({"ipoib.mtu", subject, status, observed_mtu, std::to_string(kDatagramMtu4k),
                       status == Status::kPass ? ""
                       : status == Status::kWarn
                           ? "the fabric's IB MTU is 2048: raise it to 4096 in the SM's partition "
                             "configuration (mtu=5) for an IPoIB MTU of 4092"
                           : "datagram IPoIB carries the IB MTU less 4 bytes (4092 or 2044): "
                             "ip link set " +
                                 netdev.name + " mtu 4092"});
  }
}

}  // namespace

std::string preferred_ipoib_mode(const Hca& hca) {
  // The same lists as the ipoib role's _ipoib_connected_drivers, so the two never disagree.
  static const std::set<std::string> kConnected{"ib_mthca", "mlx4_core", "ib_qib"};
  static const std::set<std::string> kEnhancedDatagram{"mlx5_core"};
  if (!hca.pci) return "";
  if (kConnected.count(hca.pci->driver) != 0) return "connected";
  if (kEnhancedDatagram.count(hca.pci->driver) != 0) return "datagram";
  return "";
}

void check_ipoib(const CheckContext& context, CheckResults& results) {
  if (!context.config.expect.ipoib) return;
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    if (port.is_ethernet() || !port.is_active()) continue;
    const std::string subject = fabric.hca->subject(port.number);
    std::optional<Netdev> netdev;
    if (!port.netdevs.empty()) netdev = read_netdev(context.root, port.netdevs.front());
    if (!netdev) {
      results.push_back({"ipoib.interface", subject, Status::kFail, "no IPoIB interface",
                         "an IPoIB interface, up",
                         "modprobe ib_ipoib and list it in /etc/modules-load.d/; the interface "
                         "(ib0 or ibpXsY) appears once the module is loaded"});
      continue;
    }
    const std::string label = subject + " (" + netdev->name + ")";
    bool up = netdev->operstate == "up";
    results.push_back(
        {"ipoib.interface", label, up ? Status::kPass : Status::kFail,
         netdev->name + " " + (netdev->operstate.empty() ? "unknown" : netdev->operstate),
         netdev->name + " up",
         up ? ""
            : "ip link set " + netdev->name +
                  " up, and configure it to come up "
                  "at boot (ifupdown, NetworkManager or systemd-networkd)"});
    if (!context.addresses) {
      results.push_back({"ipoib.address", label, Status::kSkip, "unknown", "an IP address",
                         "addresses are not known under this root (no ip-addr.txt)"});
    } else {
      bool has = has_routable_address(*context.addresses, netdev->name);
      results.push_back({"ipoib.address", label, has ? Status::kPass : Status::kFail,
                         has ? "has an address" : "no IP address", "an IP address",
                         has ? ""
                         : context.config.expect.platform == Platform::kAzure
                             ? "on Azure the VM agent gives " + netdev->name +
                                   " its address when /etc/waagent.conf has OS.EnableRDMA=y "
                                   "(ibkit's ipoib role sets it): set it, restart waagent "
                                   "(walinuxagent on Ubuntu) and check its log "
                                   "(/var/log/waagent.log)"
                             : "assign one: ip addr add <address>/<prefix> dev " + netdev->name +
                                   " (persistently: the ipoib role)"});
    }
    check_mode_and_mtu(context, *fabric.hca, *netdev, label, results);
  }
}

}  // namespace ibkit
