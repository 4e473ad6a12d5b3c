#include "fat_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>

namespace ibkit::test {
namespace {

// A subnet put together switch by switch and cable by cable, then given LIDs and forwarding
// tables by route().
class TreeBuilder {
 public:
  std::size_t add_switch(const std::string& name, int ports) {
    return add(name, SubnetNodeType::kSwitch, ports);
  }
  std::size_t add_host(const std::string& name) {
    hosts_.push_back(add(name + " HCA-1", SubnetNodeType::kChannelAdapter, 1));
    return hosts_.back();
  }
  void cable(SubnetPortRef a, SubnetPortRef b) {
    port(a).remote = b;
    port(b).remote = a;
  }

  // LIDs (hosts first, then switches) and min-hop forwarding spread as opensm's ftree engine
  // spreads it (d-mod-k): towards host LID d, a switch at level l (1 for those hosts hang from)
  // picks among its ports one hop nearer by (d / k) modulo how many there are, k being the
  // product of the up-degrees of the levels below it. Every uplink then carries some host's
  // traffic, as on a real fat tree.
  Subnet route() {
    std::uint16_t lid = 1;
    for (std::size_t host : hosts_) fabric_.nodes[host].ports[0].lid = lid++;
    for (auto& node : fabric_.nodes) {
      if (node.type != SubnetNodeType::kSwitch) continue;
      for (auto& p : node.ports) p.lid = lid;
      ++lid;
    }
    for (auto& node : fabric_.nodes) {
      if (node.type != SubnetNodeType::kSwitch) continue;
      node.forwarding.assign(lid, kNoForwardingPort);
      node.forwarding[node.ports[0].lid] = 0;
    }
    const std::vector<int> level = levels();
    const std::vector<int> divisor = divisors(level);
    std::map<std::size_t, std::vector<int>> distance_from;  // leaf -> hops to every switch
    for (std::size_t host : hosts_) {
      const SubnetPort& at = fabric_.nodes[host].ports[0];
      const std::size_t leaf = at.remote->node;
      auto& distance = distance_from[leaf];
      if (distance.empty()) distance = hops_from(leaf);
      fabric_.nodes[leaf].forwarding[at.lid] = static_cast<std::uint8_t>(at.remote->port);
      for (std::size_t s = 0; s < fabric_.nodes.size(); ++s) {
        SubnetNode& node = fabric_.nodes[s];
        if (node.type != SubnetNodeType::kSwitch || s == leaf || distance[s] < 0) continue;
        std::vector<int> nearer;
        for (const auto& p : node.ports) {
          if (p.remote && distance[p.remote->node] == distance[s] - 1 &&
              fabric_.nodes[p.remote->node].type == SubnetNodeType::kSwitch)
            nearer.push_back(p.number);
        }
        const auto pick = (at.lid / divisor[static_cast<std::size_t>(level[s])]) % nearer.size();
        node.forwarding[at.lid] = static_cast<std::uint8_t>(nearer[pick]);
      }
    }
    return fabric_;
  }

  const std::vector<std::size_t>& hosts() const { return hosts_; }

 private:
  std::size_t add(const std::string& name, SubnetNodeType type, int ports) {
    SubnetNode node{0x10000 + fabric_.nodes.size(), type, name, {}, {}};
    for (int p = type == SubnetNodeType::kSwitch ? 0 : 1; p <= ports; ++p) {
      SubnetPort added;
      added.number = p;
      added.guid = node.guid;
      added.state = kPortStateActive;
      added.phys_state = kPhysStateLinkUp;
      node.ports.push_back(added);
    }
    fabric_.nodes.push_back(node);
    return fabric_.nodes.size() - 1;
  }
  SubnetPort& port(SubnetPortRef ref) {
    for (auto& p : fabric_.nodes.at(ref.node).ports)
      if (p.number == ref.port) return p;
    throw std::logic_error("no such port");
  }
  // Each switch's level: 1 for a switch a host hangs from, one more per hop above (0 for
  // anything else).
  std::vector<int> levels() const {
    std::vector<int> level(fabric_.nodes.size(), 0);
    std::set<std::size_t> leaves;
    for (std::size_t host : hosts_) leaves.insert(fabric_.nodes[host].ports[0].remote->node);
    for (std::size_t leaf : leaves) {
      const auto distance = hops_from(leaf);
      for (std::size_t s = 0; s < level.size(); ++s) {
        if (distance[s] >= 0 && (level[s] == 0 || distance[s] + 1 < level[s]))
          level[s] = distance[s] + 1;
      }
    }
    return level;
  }
  // By level, the product of the up-degrees (cables to the level above) of the levels below.
  std::vector<int> divisors(const std::vector<int>& level) const {
    const int top = *std::max_element(level.begin(), level.end());
    std::vector<int> divisor(static_cast<std::size_t>(top) + 2, 1);
    for (int l = 1; l <= top; ++l) {
      int up = 1;
      for (std::size_t s = 0; s < level.size(); ++s) {
        if (level[s] != l) continue;
        up = 0;
        for (const auto& p : fabric_.nodes[s].ports)
          if (p.remote && level[p.remote->node] == l + 1) ++up;
        break;
      }
      divisor[static_cast<std::size_t>(l) + 1] =
          divisor[static_cast<std::size_t>(l)] * std::max(up, 1);
    }
    return divisor;
  }
  // Hops from switch `from` to every switch over switch-to-switch cables; -1 where none leads.
  std::vector<int> hops_from(std::size_t from) const {
    std::vector<int> distance(fabric_.nodes.size(), -1);
    std::deque<std::size_t> queue{from};
    distance[from] = 0;
    while (!queue.empty()) {
      const std::size_t at = queue.front();
      queue.pop_front();
      for (const auto& p : fabric_.nodes[at].ports) {
        if (!p.remote || distance[p.remote->node] >= 0 ||
            fabric_.nodes[p.remote->node].type != SubnetNodeType::kSwitch)
          continue;
        distance[p.remote->node] = distance[at] + 1;
        queue.push_back(p.remote->node);
      }
    }
    return distance;
  }

  Subnet fabric_;
  std::vector<std::size_t> hosts_;
};

}  // namespace

std::string host_name(int i) { return "h" + std::to_string(i + 1); }

Subnet two_level(int leaves, int down) {
  TreeBuilder tree;
  std::vector<std::size_t> spines;
  for (int s = 0; s < down; ++s)
    spines.push_back(tree.add_switch("spine" + std::to_string(s), leaves));
  for (int l = 0; l < leaves; ++l) {
    const std::size_t leaf = tree.add_switch("leaf" + std::to_string(l), 2 * down);
    for (int h = 0; h < down; ++h)
      tree.cable({tree.add_host(host_name(l * down + h)), 1}, {leaf, h + 1});
    for (int s = 0; s < down; ++s) tree.cable({leaf, down + s + 1}, {spines[s], l + 1});
  }
  return tree.route();
}

Subnet three_level(int pods, int edges, int aggregates, int down, int cores) {
  TreeBuilder tree;
  std::vector<std::size_t> core;
  for (int c = 0; c < aggregates * cores; ++c)
    core.push_back(tree.add_switch("core" + std::to_string(c), pods));
  int host = 0;
  for (int p = 0; p < pods; ++p) {
    std::vector<std::size_t> aggregate;
    for (int a = 0; a < aggregates; ++a) {
      aggregate.push_back(
          tree.add_switch("agg" + std::to_string(p) + "-" + std::to_string(a), edges + cores));
      for (int c = 0; c < cores; ++c)
        tree.cable({aggregate[a], edges + c + 1}, {core[a * cores + c], p + 1});
    }
    for (int e = 0; e < edges; ++e) {
      const std::size_t edge =
          tree.add_switch("edge" + std::to_string(p) + "-" + std::to_string(e), down + aggregates);
      for (int h = 0; h < down; ++h)
        tree.cable({tree.add_host(host_name(host++)), 1}, {edge, h + 1});
      for (int a = 0; a < aggregates; ++a) tree.cable({edge, down + a + 1}, {aggregate[a], e + 1});
    }
  }
  return tree.route();
}

std::vector<SweepHost> hosts_of(int count) {
  std::vector<SweepHost> hosts;
  for (int i = 0; i < count; ++i)
    hosts.push_back({host_name(i),
                     "10.0." + std::to_string(i / 250) + "." + std::to_string(i % 250 + 1), 18515});
  return hosts;
}

}  // namespace ibkit::test
