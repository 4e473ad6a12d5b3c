#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "model/pair_routes.hpp"
#include "schedule/hosts.hpp"
#include "schedule/rounds.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// A schedule chosen from the subnet's topology and routes, and what it covers.
struct TopologySchedule {
  Schedule schedule;
  std::size_t links = 0;               // switch-to-switch links in the subnet
  std::size_t covered = 0;             // of those, crossed by at least one scheduled pair's route
  std::vector<std::string> uncovered;  // the first few not crossed, by both ends
  // A schedule for blame (blame_schedule.hpp) also says how many links it crosses both ways and
  // by kBlameApart pairs no two of which share a node (`uncovered` then names the first that are
  // not), and the fewest partners a host has.
  bool for_blame = false;
  std::size_t blamable = 0;
  int fewest_partners = 0;
  PairRoutes routes;  // the links each scheduled pair crosses, both ways
};

// Rounds in which hosts under different switches test each other so that every switch-to-switch
// link carries a test, in few rounds, as the switches' forwarding tables route them. Each host
// is the channel adapter whose node description starts with its name (the whole name, or the
// part before its first dot, in any case). The switches the hosts hang from are paired
// round by round as the circle method pairs them; in a round each host of one switch is
// paired with the host in the same place under the other (driving in turn, so both directions
// carry tests), and a round is kept only when its routes cross a link no kept round crossed.
// Stops when every link is crossed or every pair of switches was tried; then every host no
// round paired (under a switch with more hosts than another) is paired with a host under
// another switch, in rounds of their own, so that every host is tested. Time and memory grow
// with the hosts, the switches paired and the tables' size, not with the routes' lengths
// multiplied (RouteWalker); each link's name is kept once (PairRoutes).
// Fails naming the host the subnet has no adapter for, or that is not cabled to a switch; when
// all hosts hang from one switch; when the subnet holds no forwarding tables (saved without
// them); when no route between the hosts arrives (naming the first); when a route comes back to
// a switch (the tables loop: naming the route and the switch); when the routes kept would hold
// more than 16,777,216 link numbers; and when `deadline` passes.
Expected<TopologySchedule> topology_schedule(
    const Subnet& fabric, const std::vector<SweepHost>& hosts,
    const std::optional<Deadline>& deadline = std::nullopt);

// What `build` makes of the topology file at `path` (at most 64 MiB). Fails naming the file,
// and its line when it cannot be read.
Expected<TopologySchedule> schedule_from_file(
    const std::string& path, const std::function<Expected<TopologySchedule>(const Subnet&)>& build);

// topology_schedule from the topology file at `path`, as schedule_from_file reads it.
Expected<TopologySchedule> read_topology_schedule(
    const std::string& path, const std::vector<SweepHost>& hosts,
    const std::optional<Deadline>& deadline = std::nullopt);

// "cover 8192 of 8192 switch-to-switch links", and the first links not covered; for a schedule
// for blame, "cross 1024 of 1024 switch-to-switch links both ways, by three pairs no two of
// which share a node; every host has 3 partners or more", and the first links that are not.
std::string coverage_text(const TopologySchedule& topology);

}  // namespace ibkit
