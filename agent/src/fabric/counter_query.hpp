#pragma once

#include <cstdint>

#include "fabric/discovery_options.hpp"
#include "fabric/fabric_model.hpp"
#include "fabric/ib_libraries.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Reads the error counters through the performance-management class for every port of `fabric`
// with a link (switch ports by the switch's LID and the port's number), one query at a time, each
// waiting options.mad_timeout_ms for each of 1 + options.mad_retries tries. Each agent's
// ClassPortInfo is asked once: where it has the additional extended counters (IB 1.3) they are
// read from PortCountersExtended, 64 bits each, as perfquery -x and ibqueryerrors do; PortCounters
// otherwise. Fills each port's `counters`, or its `counters_unread` with why not: a channel
// adapter's port that is not Active has no LID route to its agent, an agent that does not answer
// is named with its LID and port. Stops asking, and says so in the ports left, once `deadline` is
// within a second and the tries of two queries: what was read survives the deadline.
void read_error_counters(const IbLibraries& ib, const DiscoveryOptions& options,
                         const Deadline& deadline, Subnet& fabric);

// Whether a performance-management ClassPortInfo answer sets CapabilityMask2's
// IsAdditionalPortCountersExtendedSupported: PortCountersExtended then holds the error counters.
bool has_extended_error_counters(const IbLibraries& ib, const std::uint8_t* class_port_info);

// A PortCounters answer's error counters or, `extended`, a PortCountersExtended one's, into `port`
// (its `counters` and `counters_extended`).
void decode_error_counters(const IbLibraries& ib, const std::uint8_t* answer, bool extended,
                           SubnetPort& port);

}  // namespace ibkit
