#pragma once

#include <cstdint>

#include "fabric/fabric_model.hpp"
#include "model/counter_snapshot.hpp"

namespace ibkit {

// What `ibkit fabric --state FILE` keeps: every port's error counters as read, by
// "0x<node GUID>/<port>", so a run from another node of the subnet finds the same ports. Its
// host is kFabricStateHost: a node's `ibkit check --state` file is not the fabric's.
inline constexpr const char* kFabricStateHost = "the subnet";
CounterSnapshot fabric_counter_snapshot(const Subnet& fabric, std::int64_t taken_at);

// The ports `previous` has and `snapshot` does not (their counters could not be read this run,
// or the port has gone) keep their earlier counters in `snapshot`: a port that did not answer
// once is judged, when it answers again, on what it rose by since it last did.
void carry_unread_ports(CounterSnapshot& snapshot, const CounterSnapshot& previous);

// Replaces each port's counters by what they rose by since `previous`, and sets its
// counters_since. A counter lower than before was cleared in between (perfquery -R): it rose by
// what it holds now. A counter at its maximum stays as read (it stopped counting, so its rise is
// not known and the check says so), and a port `previous` does not have keeps its counters as
// read, without counters_since. Returns how many ports were compared.
std::size_t subtract_previous_counters(Subnet& fabric, const CounterSnapshot& previous);

}  // namespace ibkit
