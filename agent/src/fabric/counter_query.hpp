#pragma once

#include "fabric/fabric_discovery.hpp"
#include "fabric/fabric_model.hpp"
#include "fabric/ib_libraries.hpp"
#include "util/deadline.hpp"

namespace ibkit {

// Reads PortCounters through the performance-management class for every port of `fabric` with
// a link (switch ports by the switch's LID and the port's number), one query at a time, each
// waiting options.mad_timeout_ms for each of 1 + options.mad_retries tries. Fills each port's
// `counters`, or its `counters_unread` with why not: a channel adapter's port that is not Active
// has no LID route to its agent, an agent that does not answer is named with its LID and port.
// Stops asking, and says so in the ports left, once `deadline` is within a second and the tries of
// one query: what was read survives the deadline.
void read_error_counters(const IbLibraries& ib, const DiscoveryOptions& options,
                         const Deadline& deadline, Subnet& fabric);

}  // namespace ibkit
