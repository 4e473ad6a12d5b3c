#pragma once

#include <string>

#include "fabric/discovery_options.hpp"
#include "fabric/fabric_model.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Discovers the subnet from this node through rdma-core's own libraries (libibnetdisc walks it
// by directed route, libibmad asks every SM-capable port for SMInfo and every linked port for
// its error counters), loaded when called: a node without them still runs every other command.
// The walk has no timeout of its own, so it runs in a child process that the deadline kills;
// the counters stop being asked for just before it. Fails, with `environment` set, when the
// libraries or the device are missing or the walk fails (naming the device and what libibnetdisc
// said), and when the deadline passes first.
Expected<Subnet> discover_fabric(const DiscoveryOptions& options, const Deadline& deadline);

}  // namespace ibkit
