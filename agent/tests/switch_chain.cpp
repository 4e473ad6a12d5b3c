#include "switch_chain.hpp"

#include <cstdint>
#include <string>

namespace ibkit::test {
namespace {

SubnetPort active_port(int number, std::uint64_t guid) {
  SubnetPort port;
  port.number = number;
  port.guid = guid;
  port.state = kPortStateActive;
  port.phys_state = kPhysStateLinkUp;
  return port;
}

// The switch index each host hangs from, in host order.
std::vector<std::size_t> switch_of_hosts(const std::vector<int>& hosts_under) {
  std::vector<std::size_t> under;
  for (std::size_t s = 0; s < hosts_under.size(); ++s)
    under.insert(under.end(), static_cast<std::size_t>(hosts_under[s]), s);
  return under;
}

}  // namespace

Subnet switch_chain(const std::vector<int>& hosts_under) {
  Subnet fabric;
  const std::size_t switches = hosts_under.size();
  const std::vector<std::size_t> under = switch_of_hosts(hosts_under);
  const std::size_t lids = under.size() + switches + 1;
  for (std::size_t s = 0; s < switches; ++s) {
    const int k = hosts_under[s];
    SubnetNode node{0x200000 + s, SubnetNodeType::kSwitch, "sw" + std::to_string(s), {}, {}};
    for (int p = 0; p <= k + 2; ++p) {
      SubnetPort port = active_port(p, node.guid);
      port.lid = static_cast<std::uint16_t>(under.size() + s + 1);
      if (p == k + 1 && s > 0) port.remote = SubnetPortRef{s - 1, hosts_under[s - 1] + 2};
      if (p == k + 2 && s + 1 < switches)
        port.remote = SubnetPortRef{s + 1, hosts_under[s + 1] + 1};
      if ((p == k + 1 && s == 0) || (p == k + 2 && s + 1 == switches)) port.state = 1;
      node.ports.push_back(port);
    }
    node.forwarding.assign(lids, kNoForwardingPort);
    node.forwarding[under.size() + s + 1] = 0;
    fabric.nodes.push_back(node);
  }
  int slot = 0;
  for (std::size_t h = 0; h < under.size(); ++h) {
    const std::size_t s = under[h];
    slot = h > 0 && under[h - 1] == s ? slot + 1 : 1;
    const std::size_t index = fabric.nodes.size();
    SubnetNode host{0x100000 + h,
                    SubnetNodeType::kChannelAdapter,
                    "h" + std::to_string(h + 1) + " HCA-1",
                    {},
                    {}};
    SubnetPort port = active_port(1, host.guid);
    port.lid = static_cast<std::uint16_t>(h + 1);
    port.remote = SubnetPortRef{s, slot};
    host.ports.push_back(port);
    fabric.nodes.push_back(host);
    fabric.nodes[s].ports[static_cast<std::size_t>(slot)].remote = SubnetPortRef{index, 1};
    for (std::size_t t = 0; t < switches; ++t) {
      const int k = hosts_under[t];
      fabric.nodes[t].forwarding[h + 1] = static_cast<std::uint8_t>(t == s  ? slot
                                                                    : t > s ? k + 1
                                                                            : k + 2);
    }
  }
  return fabric;
}

Subnet switch_chain(int switches) {
  return switch_chain(std::vector<int>(static_cast<std::size_t>(switches), 1));
}

void route_away(Subnet& fabric) {
  std::size_t switches = 0;
  while (switches < fabric.nodes.size() && fabric.nodes[switches].type == SubnetNodeType::kSwitch)
    ++switches;
  for (std::size_t s = 0; s < switches; ++s) {
    SubnetNode& node = fabric.nodes[s];
    const int back = static_cast<int>(node.ports.size()) - 2;  // towards switch s - 1
    const int ahead = back + 1;                                // towards switch s + 1
    for (std::size_t h = switches; h < fabric.nodes.size(); ++h) {
      const SubnetPort& host = fabric.nodes[h].ports[0];
      const std::size_t t = host.remote->node;
      if (t == s) continue;
      const bool away_is_back = t > s;
      const bool can_go_back = s > 0;
      const bool can_go_ahead = s + 1 < switches;
      int out = away_is_back ? (can_go_back ? back : ahead) : (can_go_ahead ? ahead : back);
      node.forwarding[host.lid] = static_cast<std::uint8_t>(out);
    }
  }
}

}  // namespace ibkit::test
