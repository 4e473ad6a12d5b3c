#pragma once
// Fat trees built for tests: switches, hosts and cables, given LIDs and forwarding tables the
// way opensm's ftree engine spreads routes (d-mod-k). Hosts are "h1".."hN", each described as
// "hN HCA-1".

#include <string>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "schedule/hosts.hpp"

namespace ibkit::test {

// "h1" for host 0.
std::string host_name(int i);

// Leaves of `down` hosts with one cable up to each of `down` spines.
Subnet two_level(int leaves, int down);

// Pods of `edges` edge switches (each with `down` hosts, one cable to each of the pod's
// `aggregates`), each aggregate with `cores` cables up: aggregate j of every pod to core group j.
Subnet three_level(int pods, int edges, int aggregates, int down, int cores);

// Hosts h1..hN at made-up addresses.
std::vector<SweepHost> hosts_of(int count);

}  // namespace ibkit::test
