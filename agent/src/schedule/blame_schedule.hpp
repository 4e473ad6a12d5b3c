#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "schedule/hosts.hpp"
#include "schedule/topology_schedule.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// The partners every host gets in a schedule for blame: blame_nodes needs two bad pairs of a
// node, and a third partner tells a node at fault from a partner that met it once.
inline constexpr int kBlamePartners = 3;
// The pairs, no two with a node in common, that cross every link in a schedule for blame: a
// slow link then makes pairs slow that share nothing but it, two of them without any one node
// (on destination-routed trees every pair reaching a host comes down one cable, and link blame
// clears that host only on the word of two pairs across the cable without it).
inline constexpr int kBlameApart = 3;

// Rounds from the subnet's topology and routes (--pattern topo-blame:FILE) in which a bad node
// and a bad switch-to-switch link can each be told from a bad pair: every host tests at least
// kBlamePartners hosts under other switches (fewer only when there are not so many), and every
// link is crossed both ways, and by kBlameApart pairs no two of which share a node (where the
// routes allow), so that a slow link makes pairs slow that share nothing but it. Rounds pair the
// switches as topology_schedule does, host k of one with host k + offset of the other; each round
// kept is the one among the next few pairings and offsets that meets the most of what is still
// missing (each pairing once, so that no two switches meet twice), until nothing is or no round
// helps; then hosts short of partners are paired with hosts under other switches. Fails as
// topology_schedule fails.
Expected<TopologySchedule> blame_schedule(const Subnet& fabric, const std::vector<SweepHost>& hosts,
                                          const std::optional<Deadline>& deadline = std::nullopt);

// Same, from the topology file at `path`, as schedule_from_file reads it.
Expected<TopologySchedule> read_blame_schedule(
    const std::string& path, const std::vector<SweepHost>& hosts,
    const std::optional<Deadline>& deadline = std::nullopt);

}  // namespace ibkit
