#include "checks/mtu_check.hpp"

namespace ibkit {
namespace {

std::string mtu_hint(const Port& port, int expected) {
  if (port.is_ethernet()) {
    const std::string netdev = port.netdevs.empty() ? "the fabric NIC" : port.netdevs.front();
    return "on RoCE the netdev MTU decides it (the RDMA MTU is the largest of 256-4096 that fits "
           "it less the RoCE headers): set " +
           netdev + "'s MTU on every node (ip link set " + netdev + " mtu N; " +
           std::to_string(expected) + " needs about " + std::to_string(expected + 100) +
           " or more), and the switch ports to match";
  }
  return "on InfiniBand the subnet manager sets each link to the smaller of its two ends' MTU "
         "capability: look for an HCA or switch port with a smaller max MTU (ibv_devinfo max_mtu, "
         "ibportstate), or an SM configured to cap it";
}

}  // namespace

void check_port_mtus(const CheckContext& context, CheckResults& results) {
  const auto& expected = context.config.expect.active_mtu;
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    if (!port.is_active()) continue;
    const std::string subject = fabric.hca->subject(port.number);
    const std::string seen =
        port.active_mtu ? std::to_string(*port.active_mtu) : std::string("unreadable");
    if (!expected) {
      results.push_back({"port.mtu", subject, Status::kSkip, seen, "",
                         "no expectation: set [expect].active_mtu"});
      continue;
    }
    CheckResult result{"port.mtu", subject, Status::kPass, seen, std::to_string(*expected), ""};
    if (!port.active_mtu) {
      result.status = Status::kFail;
      result.hint =
          "the port's active MTU could not be read (ibv_query_port: is ib_uverbs loaded? a "
          "fixture tree needs ibv_devinfo.txt)";
    } else if (*port.active_mtu != *expected) {
      result.status = Status::kFail;
      result.hint = mtu_hint(port, *expected);
    }
    results.push_back(std::move(result));
  }
}

}  // namespace ibkit
