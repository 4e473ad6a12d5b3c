#include "fabric/forwarding_query.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ibkit {
namespace {

constexpr unsigned kLidsPerBlock = 64;

// The table of one switch, or an empty one when a block does not come back.
std::vector<std::uint8_t> table_of(const IbLibraries& ib, ibnd_node_t& node,
                                   const DiscoveryOptions& options, ibmad_port* source) {
  const auto top = std::min<std::size_t>(ib.field(node.switchinfo, 0, IB_SW_LINEAR_FDB_TOP_F),
                                         kMaxForwardingLids - 1);
  std::vector<std::uint8_t> table;
  table.reserve(top + 1);
  for (unsigned block = 0; block * kLidsPerBlock <= top; ++block) {
    std::array<std::uint8_t, IB_SMP_DATA_SIZE> answer{};
    ib_portid_t route = node.path_portid;
    if (ib.smp_query(answer.data(), &route, IB_ATTR_LINEARFORWTBL, block,
                     static_cast<unsigned>(options.mad_timeout_ms), source) == nullptr)
      return {};
    for (unsigned i = 0; i < kLidsPerBlock && table.size() <= top; ++i) table.push_back(answer[i]);
  }
  return table;
}

}  // namespace

void read_forwarding_tables(const IbLibraries& ib, ibnd_fabric_t& discovered,
                            const std::map<const ibnd_node_t*, std::size_t>& index,
                            const DiscoveryOptions& options, const Deadline& deadline,
                            Subnet& fabric) {
  std::array<int, 2> classes{IB_SMI_CLASS, IB_SMI_DIRECT_CLASS};
  std::string device = options.device;
  ibmad_port* source = ib.open_port(device.empty() ? nullptr : device.data(), options.port,
                                    classes.data(), static_cast<int>(classes.size()));
  if (source == nullptr) return;
  const int reserve_ms = 1000 + 2 * options.mad_timeout_ms;
  for (ibnd_node_t* node = discovered.nodes; node != nullptr; node = node->next) {
    if (node->type != IB_NODE_SWITCH) continue;
    if (deadline.remaining_ms() < reserve_ms) break;
    fabric.nodes[index.at(node)].forwarding = table_of(ib, *node, options, source);
  }
  ib.close_port(source);
}

}  // namespace ibkit
