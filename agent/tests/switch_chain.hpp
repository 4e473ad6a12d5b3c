#pragma once
// Switches in a line, for the topology schedule's worst cases: long routes, looping tables,
// switches of unequal host counts and a cable listed from one end. Hosts are "h1".."hN",
// each described as "hN HCA-1", numbered switch by switch.

#include <vector>

#include "fabric/fabric_model.hpp"

namespace ibkit::test {

// Switches "sw0".."sw<n-1>" in a line, switch i with hosts_under[i] hosts on ports 1..k, its
// cable to the switch before it on port k+1 and to the one after it on port k+2. LIDs: the
// hosts first, then the switches; every switch sends a host's LID along the line towards it.
Subnet switch_chain(const std::vector<int>& hosts_under);

// `switches` switches with one host each.
Subnet switch_chain(int switches);

// Tables that send every host LID a switch does not hold away from that host (back at the
// line's ends): no route between hosts under different switches arrives; each bounces
// between two switches.
void route_away(Subnet& fabric);

}  // namespace ibkit::test
