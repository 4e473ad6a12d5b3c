#include "schedule/topology_schedule.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "fabric/fabric_record.hpp"
#include "fabric/routes.hpp"
#include "schedule/schedule.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kUncoveredNamed = 10;

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string short_name(const std::string& name) { return name.substr(0, name.find('.')); }

// A host where the subnet has it: its adapter's port and the switch at the far end.
struct PlacedHost {
  SubnetPortRef port;
  std::uint16_t lid = 0;
  std::size_t leaf = 0;  // the switch's node index
};

// The channel adapters by the first word of their description, whole and short, lowercased.
std::unordered_map<std::string, std::size_t> adapters_by_name(const Subnet& fabric) {
  std::unordered_map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    const SubnetNode& node = fabric.nodes[i];
    if (node.type != SubnetNodeType::kChannelAdapter) continue;
    const std::string word = lowercase(node.description.substr(0, node.description.find(' ')));
    if (word.empty()) continue;
    by_name.emplace(word, i);
    by_name.emplace(short_name(word), i);
  }
  return by_name;
}

Expected<PlacedHost> place(const Subnet& fabric,
                           const std::unordered_map<std::string, std::size_t>& adapters,
                           const SweepHost& host) {
  const std::string name = lowercase(host.name.empty() ? host.address : host.name);
  auto found = adapters.find(name);
  if (found == adapters.end()) found = adapters.find(short_name(name));
  if (found == adapters.end()) {
    return Error{"host " + host_description(host) +
                 " is no channel adapter's node description (its first word): name the hosts "
                 "as their adapters describe themselves (hostname HCA-1)"};
  }
  for (const auto& port : fabric.nodes[found->second].ports) {
    if (!port.remote || port.state != kPortStateActive || port.lid == 0) continue;
    if (fabric.node_of(*port.remote).type != SubnetNodeType::kSwitch) continue;
    return PlacedHost{{found->second, port.number}, port.lid, port.remote->node};
  }
  return Error{"host " + host_description(host) +
               " has no ACTIVE port cabled to a switch in the "
               "saved topology"};
}

struct LinkLess {
  bool operator()(const SubnetPortRef& a, const SubnetPortRef& b) const {
    return a.node != b.node ? a.node < b.node : a.port < b.port;
  }
};

// A link by its lower end, so both directions of a cable count once. A cable whose far end does
// not lead back (listed from one end only, as a saved topology may hold it) is known by the end
// that lists it. `out` has a far end; so has the port returned.
SubnetPortRef link_key(const Subnet& fabric, const SubnetPortRef& out) {
  const SubnetPortRef far = *fabric.port_of(out)->remote;
  const SubnetPort* back = fabric.port_of(far);
  if (back == nullptr || !back->remote || !(*back->remote == out)) return out;
  return LinkLess{}(far, out) ? far : out;
}
using LinkSet = std::set<SubnetPortRef, LinkLess>;

LinkSet switch_links(const Subnet& fabric) {
  LinkSet links;
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    if (fabric.nodes[i].type != SubnetNodeType::kSwitch) continue;
    for (const auto& port : fabric.nodes[i].ports) {
      if (port.number == 0 || !port.remote || port.state != kPortStateActive) continue;
      if (fabric.node_of(*port.remote).type != SubnetNodeType::kSwitch) continue;
      if (fabric.port_of(*port.remote) == nullptr) continue;
      links.insert(link_key(fabric, {i, port.number}));
    }
  }
  return links;
}

// `link` is a link_key: a port with a far end.
std::string link_name(const Subnet& fabric, const SubnetPortRef& link) {
  return port_name(fabric, link) + " <-> " + port_name(fabric, *fabric.port_of(link)->remote);
}

// One round from a pairing of switches: host k of one with host k of the other, who drives
// alternating with k.
Round round_between(const std::vector<std::vector<int>>& under, const Round& leaf_pairs) {
  Round round;
  for (const auto& pair : leaf_pairs) {
    const auto& first = under[static_cast<std::size_t>(pair.a)];
    const auto& second = under[static_cast<std::size_t>(pair.b)];
    for (std::size_t k = 0; k < std::min(first.size(), second.size()); ++k) {
      if (k % 2 == 0) {
        round.push_back({first[k], second[k]});
      } else {
        round.push_back({second[k], first[k]});
      }
    }
  }
  return round;
}

}  // namespace

Expected<TopologySchedule> topology_schedule(const Subnet& fabric,
                                             const std::vector<SweepHost>& hosts) {
  if (std::none_of(fabric.nodes.begin(), fabric.nodes.end(),
                   [](const SubnetNode& node) { return !node.forwarding.empty(); })) {
    return Error{
        "the topology holds no forwarding tables: save it again with ibkit fabric "
        "--save-topology, which reads them"};
  }
  const auto adapters = adapters_by_name(fabric);
  std::vector<PlacedHost> placed;
  std::map<std::size_t, int> leaf_number;  // switch node -> its index in `under`
  std::vector<std::vector<int>> under;     // hosts by the switch they hang from
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    auto host = place(fabric, adapters, hosts[h]);
    if (!host) return host.error();
    auto [at, added] = leaf_number.emplace(host->leaf, static_cast<int>(under.size()));
    if (added) under.emplace_back();
    under[static_cast<std::size_t>(at->second)].push_back(static_cast<int>(h));
    placed.push_back(*host);
  }
  if (under.size() < 2) {
    return Error{
        "every host hangs from one switch: no switch-to-switch link to cover; use "
        "all-pairs or ring"};
  }
  const LinkSet links = switch_links(fabric);
  LinkSet crossed;
  TopologySchedule result;
  result.links = links.size();
  for (const Round& leaf_pairs : all_pairs_schedule(static_cast<int>(under.size()))) {
    if (crossed.size() == links.size()) break;
    Round round = round_between(under, leaf_pairs);
    bool new_link = false;
    std::vector<LinkSet> round_routes;
    for (const auto& pair : round) {
      const PlacedHost& a = placed[static_cast<std::size_t>(pair.a)];
      const PlacedHost& b = placed[static_cast<std::size_t>(pair.b)];
      LinkSet& route = round_routes.emplace_back();
      for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        auto hops = switch_hops(fabric, from.port, to.lid);
        if (!hops) continue;
        for (const auto& hop : *hops) {
          const SubnetPortRef key = link_key(fabric, hop);
          if (links.count(key) == 0) continue;
          route.insert(key);
          if (crossed.insert(key).second) new_link = true;
        }
      }
    }
    if (!new_link) continue;
    for (std::size_t i = 0; i < round.size(); ++i) {
      std::vector<std::string> names;
      for (const auto& link : round_routes[i]) names.push_back(link_name(fabric, link));
      std::sort(names.begin(), names.end());
      result.routes[route_key(hosts[static_cast<std::size_t>(round[i].a)].name,
                              hosts[static_cast<std::size_t>(round[i].b)].name)] = std::move(names);
    }
    result.schedule.push_back(std::move(round));
  }
  result.covered = crossed.size();
  for (const auto& link : links) {
    if (result.uncovered.size() == kUncoveredNamed) break;
    if (crossed.count(link) == 0) result.uncovered.push_back(link_name(fabric, link));
  }
  return result;
}

Expected<TopologySchedule> read_topology_schedule(const std::string& path,
                                                  const std::vector<SweepHost>& hosts) {
  auto fabric = read_topology_file(path, "topology");
  if (!fabric) return fabric.error();
  auto schedule = topology_schedule(*fabric, hosts);
  if (!schedule) return Error{path + ": " + schedule.error().message};
  return schedule;
}

std::string coverage_text(const TopologySchedule& topology) {
  std::string text = "cover " + std::to_string(topology.covered) + " of " +
                     std::to_string(topology.links) + " switch-to-switch links";
  if (!topology.uncovered.empty()) {
    text += " (the routes between these hosts never cross " + join(topology.uncovered, ", ") +
            (topology.links - topology.covered > topology.uncovered.size() ? ", ..." : "") + ")";
  }
  return text;
}

}  // namespace ibkit
