#include "fabric/counter_query.hpp"

#include <array>
#include <cstdio>
#include <string>

#include "fabric/error_counters.hpp"

namespace ibkit {
namespace {

// PortCounters' error counters in error_counters()'s order.
constexpr std::array<MAD_FIELDS, 12> kCounterFields{
    IB_PC_ERR_SYM_F,       IB_PC_LINK_RECOVERS_F,  IB_PC_LINK_DOWNED_F,    IB_PC_ERR_RCV_F,
    IB_PC_ERR_PHYSRCV_F,   IB_PC_ERR_SWITCH_REL_F, IB_PC_XMT_DISCARDS_F,   IB_PC_ERR_XMTCONSTR_F,
    IB_PC_ERR_RCVCONSTR_F, IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
};

// The LID that reaches a port's performance agent; 0 for a channel adapter's port that is not
// Active (no LID route reaches it yet).
std::uint16_t agent_lid(const SubnetNode& node, const SubnetPort& port) {
  if (node.type != SubnetNodeType::kSwitch && port.state != kPortStateActive) return 0;
  return performance_agent_lid(node, port);
}

void read_port(const IbLibraries& ib, const DiscoveryOptions& options, ibmad_port* source,
               const SubnetNode& node, SubnetPort& port) {
  const std::uint16_t lid = agent_lid(node, port);
  if (lid == 0) {
    port.counters_unread = "the port is not Active, so no LID reaches its performance agent";
    return;
  }
  std::array<std::uint8_t, 1024> answer{};
  ib_portid_t destination{};
  destination.lid = lid;
  if (ib.pma_query(answer.data(), &destination, port.number,
                   static_cast<unsigned>(options.mad_timeout_ms), IB_GSI_PORT_COUNTERS,
                   source) == nullptr) {
    port.counters_unread = "no answer from the performance agent at LID " + std::to_string(lid) +
                           " port " + std::to_string(port.number);
    return;
  }
  const auto& names = error_counters();
  for (std::size_t i = 0; i < kCounterFields.size(); ++i)
    port.counters[names[i].name] = ib.field(answer.data(), 0, kCounterFields[i]);
}

}  // namespace

void read_error_counters(const IbLibraries& ib, const DiscoveryOptions& options,
                         const Deadline& deadline, Subnet& fabric) {
  std::array<int, 1> classes{IB_PERFORMANCE_CLASS};
  std::string device = options.device;
  ibmad_port* source = ib.open_port(device.empty() ? nullptr : device.data(), options.port,
                                    classes.data(), static_cast<int>(classes.size()));
  if (source != nullptr) ib.set_retries(source, options.mad_retries);
  // A query that gets no answer waits its timeout once and once more per retry.
  const int reserve_ms = 1000 + (options.mad_retries + 1) * options.mad_timeout_ms;
  for (auto& node : fabric.nodes) {
    for (auto& port : node.ports) {
      if (!port.remote || port.number == 0) continue;
      if (source == nullptr) {
        port.counters_unread = "this node's performance-management port could not be opened";
      } else if (deadline.remaining_ms() < reserve_ms) {
        port.counters_unread = "not asked: --deadline was about to pass";
      } else {
        read_port(ib, options, source, node, port);
      }
    }
  }
  if (source != nullptr) ib.close_port(source);
}

}  // namespace ibkit
