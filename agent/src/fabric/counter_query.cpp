#include "fabric/counter_query.hpp"

#include <array>
#include <string>
#include <unordered_map>

#include "model/error_counters.hpp"

namespace ibkit {
namespace {

// PortCounters' error counters in error_counters()'s order, and PortCountersExtended's 64-bit ones
// in the same order.
constexpr std::array<MAD_FIELDS, 12> kCounterFields{
    IB_PC_ERR_SYM_F,       IB_PC_LINK_RECOVERS_F,  IB_PC_LINK_DOWNED_F,    IB_PC_ERR_RCV_F,
    IB_PC_ERR_PHYSRCV_F,   IB_PC_ERR_SWITCH_REL_F, IB_PC_XMT_DISCARDS_F,   IB_PC_ERR_XMTCONSTR_F,
    IB_PC_ERR_RCVCONSTR_F, IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
};
constexpr std::array<MAD_FIELDS, 12> kExtendedCounterFields{
    IB_PC_EXT_ERR_SYM_F,        IB_PC_EXT_LINK_RECOVERS_F,  IB_PC_EXT_LINK_DOWNED_F,
    IB_PC_EXT_ERR_RCV_F,        IB_PC_EXT_ERR_PHYSRCV_F,    IB_PC_EXT_ERR_SWITCH_REL_F,
    IB_PC_EXT_XMT_DISCARDS_F,   IB_PC_EXT_ERR_XMTCONSTR_F,  IB_PC_EXT_ERR_RCVCONSTR_F,
    IB_PC_EXT_ERR_LOCALINTEG_F, IB_PC_EXT_ERR_EXCESS_OVR_F, IB_PC_EXT_VL15_DROPPED_F,
};

// ClassPortInfo CapabilityMask2 bit 1, IsAdditionalPortCountersExtendedSupported.
constexpr unsigned kAdditionalExtendedCounters = 1U << 1;

// libibmad's getters take a void* but only read.
void* mad_bytes(const std::uint8_t* answer) { return const_cast<std::uint8_t*>(answer); }

// The LID that reaches a port's performance agent; 0 for a channel adapter's port that is not
// Active (no LID route reaches it yet).
std::uint16_t agent_lid(const SubnetNode& node, const SubnetPort& port) {
  if (node.type != SubnetNodeType::kSwitch && port.state != kPortStateActive) return 0;
  return performance_agent_lid(node, port);
}

// Whether the agent at `destination` has the 64-bit error counters; false when its ClassPortInfo
// does not answer (PortCounters is then asked, as before there was an extended attribute).
bool agent_has_extended_counters(const IbLibraries& ib, const DiscoveryOptions& options,
                                 ibmad_port* source, ib_portid_t destination, int port) {
  std::array<std::uint8_t, 1024> answer{};
  if (ib.pma_query(answer.data(), &destination, port, static_cast<unsigned>(options.mad_timeout_ms),
                   CLASS_PORT_INFO, source) == nullptr)
    return false;
  return has_extended_error_counters(ib, answer.data());
}

void read_port(const IbLibraries& ib, const DiscoveryOptions& options, ibmad_port* source,
               std::unordered_map<std::uint16_t, bool>& extended_at, const SubnetNode& node,
               SubnetPort& port) {
  const std::uint16_t lid = agent_lid(node, port);
  if (lid == 0) {
    port.counters_unread = "the port is not Active, so no LID reaches its performance agent";
    return;
  }
  ib_portid_t destination{};
  destination.lid = lid;
  auto known = extended_at.find(lid);
  if (known == extended_at.end())
    known = extended_at
                .emplace(lid,
                         agent_has_extended_counters(ib, options, source, destination, port.number))
                .first;
  const bool extended = known->second;
  std::array<std::uint8_t, 1024> answer{};
  if (ib.pma_query(answer.data(), &destination, port.number,
                   static_cast<unsigned>(options.mad_timeout_ms),
                   extended ? IB_GSI_PORT_COUNTERS_EXT : IB_GSI_PORT_COUNTERS, source) == nullptr) {
    port.counters_unread = "no answer from the performance agent at LID " + std::to_string(lid) +
                           " port " + std::to_string(port.number);
    return;
  }
  decode_error_counters(ib, answer.data(), extended, port);
}

}  // namespace

bool has_extended_error_counters(const IbLibraries& ib, const std::uint8_t* class_port_info) {
  return (ib.field(mad_bytes(class_port_info), 0, IB_CPI_CAPMASK2_F) &
          kAdditionalExtendedCounters) != 0;
}

void decode_error_counters(const IbLibraries& ib, const std::uint8_t* answer, bool extended,
                           SubnetPort& port) {
  const auto& names = error_counters();
  for (std::size_t i = 0; i < kCounterFields.size(); ++i) {
    port.counters[names[i].name] = extended
                                       ? ib.field64(mad_bytes(answer), 0, kExtendedCounterFields[i])
                                       : ib.field(mad_bytes(answer), 0, kCounterFields[i]);
  }
  port.counters_extended = extended;
}

void read_error_counters(const IbLibraries& ib, const DiscoveryOptions& options,
                         const Deadline& deadline, Subnet& fabric) {
  std::array<int, 1> classes{IB_PERFORMANCE_CLASS};
  std::string device = options.device;
  ibmad_port* source = ib.open_port(device.empty() ? nullptr : device.data(), options.port,
                                    classes.data(), static_cast<int>(classes.size()));
  if (source != nullptr) ib.set_retries(source, options.mad_retries);
  // A port may take two queries (its agent's ClassPortInfo, then its counters), and a query
  // that gets no answer waits its timeout once and once more per retry.
  const int reserve_ms = 1000 + 2 * (options.mad_retries + 1) * options.mad_timeout_ms;
  std::unordered_map<std::uint16_t, bool> extended_at;  // agent LID -> has the 64-bit counters
  for (auto& node : fabric.nodes) {
    for (auto& port : node.ports) {
      if (!port.remote || port.number == 0) continue;
      if (source == nullptr) {
        port.counters_unread = "this node's performance-management port could not be opened";
      } else if (deadline.remaining_ms() < reserve_ms) {
        port.counters_unread = "not asked: --deadline was about to pass";
      } else {
        read_port(ib, options, source, extended_at, node, port);
      }
    }
  }
  if (source != nullptr) ib.close_port(source);
}

}  // namespace ibkit
