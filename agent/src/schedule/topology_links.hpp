#pragma once
// What the schedules chosen from a saved topology share: where each host hangs, the
// switch-to-switch links by name, and the links each scheduled pair's routes cross.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "model/pair_routes.hpp"
#include "schedule/hosts.hpp"
#include "schedule/rounds.hpp"
#include "util/expected.hpp"

namespace ibkit {

// A host where the subnet has it: its adapter's port and the switch at the far end.
struct PlacedHost {
  SubnetPortRef port;
  std::uint16_t lid = 0;
  std::size_t leaf = 0;  // the switch's node index
};

struct HostPlacement {
  std::vector<PlacedHost> placed;       // by host
  std::vector<std::vector<int>> under;  // hosts by the switch they hang from, in the hosts' order
};

// Each host is the channel adapter whose node description starts with its name (the whole
// name, or the part before its first dot, in any case). Fails naming the host the subnet has no
// adapter for, or that is not cabled to a switch; when the subnet holds no forwarding tables
// (saved without them); and when all hosts hang from one switch.
Expected<HostPlacement> place_hosts(const Subnet& fabric, const std::vector<SweepHost>& hosts);

struct LinkLess {
  bool operator()(const SubnetPortRef& a, const SubnetPortRef& b) const {
    return a.node != b.node ? a.node < b.node : a.port < b.port;
  }
};
using LinkSet = std::set<SubnetPortRef, LinkLess>;

// A link by its lower end, so both directions of a cable count once. A cable whose far end does
// not lead back (listed from one end only, as a saved topology may hold it) is known by the end
// that lists it. `out` has a far end; so has the port returned.
SubnetPortRef link_key(const Subnet& fabric, const SubnetPortRef& out);

// The ACTIVE switch-to-switch links, by link_key.
LinkSet switch_links(const Subnet& fabric);

// "leaf-1 (0x...) port 13 <-> spine-2 (0x...) port 1" for a link_key.
std::string link_name(const Subnet& fabric, const SubnetPortRef& link);

// One switch-to-switch link a route crosses, by its number in LinkWays, and which way: leaving
// the link's key end (1) or entering it (2).
struct LinkCrossing {
  std::uint32_t link = 0;
  std::uint8_t way = 0;
};

// The switch-to-switch links numbered 0..size()-1 in LinkSet order, and the links the way from
// one placed host to another crosses, as the forwarding tables send it: walked once per source
// switch and destination LID, however often it is asked for.
class LinkWays {
 public:
  LinkWays(const Subnet& fabric, const std::vector<PlacedHost>& placed, const LinkSet& links);

  std::size_t size() const { return keys_.size(); }
  const SubnetPortRef& key(std::uint32_t link) const { return keys_[link]; }
  // From host `from` to host `to` (indices into `placed`); empty when the route goes nowhere.
  const std::vector<LinkCrossing>& way(std::size_t from, std::size_t to);

 private:
  const Subnet& fabric_;
  const std::vector<PlacedHost>& placed_;
  std::vector<SubnetPortRef> keys_;
  std::map<SubnetPortRef, std::uint32_t, LinkLess> number_;
  std::unordered_map<std::uint64_t, std::vector<LinkCrossing>> walked_;
};

// Keeps the links each pair of a round crosses, both ways, in `routes`: each link's name once,
// a pair its links' numbers.
class RouteKeeper {
 public:
  RouteKeeper(const Subnet& fabric, const std::vector<SweepHost>& hosts,
              const std::vector<PlacedHost>& placed, const LinkSet& links)
      : fabric_(fabric), hosts_(hosts), placed_(placed), links_(links) {}

  // Fails when all the routes kept would hold more than 16,777,216 link numbers.
  Expected<Done> keep(const Round& round, PairRoutes& routes);

 private:
  const Subnet& fabric_;
  const std::vector<SweepHost>& hosts_;
  const std::vector<PlacedHost>& placed_;
  const LinkSet& links_;
  std::map<SubnetPortRef, std::uint32_t, LinkLess> numbers_;  // a link's number in the routes
};

}  // namespace ibkit
