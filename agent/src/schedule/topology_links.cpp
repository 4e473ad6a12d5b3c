#include "schedule/topology_links.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "fabric/routes.hpp"

namespace ibkit {
namespace {

// The most link numbers the routes kept may hold in all, 64 MiB of them: a line of 4,096
// switches, one host each, whose pairs cross half of it on average holds some 4 million.
constexpr std::size_t kMostRouteLinks = std::size_t{1} << 24;

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string short_name(const std::string& name) { return name.substr(0, name.find('.')); }

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

}  // namespace

Expected<HostPlacement> place_hosts(const Subnet& fabric, const std::vector<SweepHost>& hosts) {
  if (std::none_of(fabric.nodes.begin(), fabric.nodes.end(),
                   [](const SubnetNode& node) { return !node.forwarding.empty(); })) {
    return Error{
        "the topology holds no forwarding tables: save it again with ibkit fabric "
        "--save-topology, which reads them"};
  }
  const auto adapters = adapters_by_name(fabric);
  HostPlacement placement;
  std::map<std::size_t, int> leaf_number;  // switch node -> its index in `under`
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    auto host = place(fabric, adapters, hosts[h]);
    if (!host) return host.error();
    auto [at, added] = leaf_number.emplace(host->leaf, static_cast<int>(placement.under.size()));
    if (added) placement.under.emplace_back();
    placement.under[static_cast<std::size_t>(at->second)].push_back(static_cast<int>(h));
    placement.placed.push_back(*host);
  }
  if (placement.under.size() < 2) {
    return Error{
        "every host hangs from one switch: no switch-to-switch link to cover; use "
        "all-pairs or ring"};
  }
  return placement;
}

SubnetPortRef link_key(const Subnet& fabric, const SubnetPortRef& out) {
  const SubnetPortRef far = *fabric.port_of(out)->remote;
  const SubnetPort* back = fabric.port_of(far);
  if (back == nullptr || !back->remote || !(*back->remote == out)) return out;
  return LinkLess{}(far, out) ? far : out;
}

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

std::string link_name(const Subnet& fabric, const SubnetPortRef& link) {
  return port_name(fabric, link) + " <-> " + port_name(fabric, *fabric.port_of(link)->remote);
}

LinkWays::LinkWays(const Subnet& fabric, const std::vector<PlacedHost>& placed,
                   const LinkSet& links)
    : fabric_(fabric), placed_(placed) {
  for (const auto& link : links) {
    number_.emplace(link, static_cast<std::uint32_t>(keys_.size()));
    keys_.push_back(link);
  }
}

const std::vector<LinkCrossing>& LinkWays::way(std::size_t from, std::size_t to) {
  const PlacedHost& source = placed_[from];
  const std::uint16_t lid = placed_[to].lid;
  const std::uint64_t key = (static_cast<std::uint64_t>(source.leaf) << 16) | lid;
  auto [at, added] = walked_.emplace(key, std::vector<LinkCrossing>{});
  if (!added) return at->second;
  if (auto hops = switch_hops(fabric_, source.port, lid)) {
    for (const auto& hop : *hops) {
      const SubnetPortRef link = link_key(fabric_, hop);
      auto number = number_.find(link);
      if (number == number_.end()) continue;
      at->second.push_back({number->second, static_cast<std::uint8_t>(link == hop ? 1 : 2)});
    }
  }
  return at->second;
}

Expected<Done> RouteKeeper::keep(const Round& round, PairRoutes& routes) {
  for (const auto& pair : round) {
    std::vector<std::uint32_t> route;
    for (const auto& [from, to] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
      const PlacedHost& source = placed_[static_cast<std::size_t>(from)];
      auto hops = switch_hops(fabric_, source.port, placed_[static_cast<std::size_t>(to)].lid);
      if (!hops) continue;
      for (const auto& hop : *hops) {
        const SubnetPortRef key = link_key(fabric_, hop);
        if (links_.count(key) == 0) continue;
        auto [at, added] = numbers_.emplace(key, 0);
        if (added) at->second = routes.link(link_name(fabric_, key));
        route.push_back(at->second);
      }
    }
    routes.set_route(hosts_[static_cast<std::size_t>(pair.a)].name,
                     hosts_[static_cast<std::size_t>(pair.b)].name, std::move(route));
    if (routes.numbers_kept() > kMostRouteLinks) {
      return Error{"the routes between these hosts cross more than " +
                   std::to_string(kMostRouteLinks) +
                   " switch-to-switch links in all, more than a sweep keeps: route the subnet "
                   "with fewer switches on each path, or sweep fewer hosts"};
    }
  }
  return Done{};
}

}  // namespace ibkit
