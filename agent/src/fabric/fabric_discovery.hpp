#pragma once

#include <string>

#include "fabric/fabric_model.hpp"
#include "util/deadline.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Where discovery starts, and how hard it tries.
struct DiscoveryOptions {
  std::string device;  // "mlx5_0"; "" for the first device with an active port
  int port = 0;        // 0 for the device's first active port
  int mad_timeout_ms = 200;
  int mad_retries = 3;
  bool read_counters = true;     // every linked port's PortCounters (one query each)
  bool read_forwarding = false;  // every switch's forwarding table (a query per 64 LIDs)
};

// Discovers the subnet from this node through rdma-core's own libraries (libibnetdisc walks it
// by directed route, libibmad asks every SM-capable port for SMInfo and every linked port for
// its error counters), loaded when called: a node without them still runs every other command.
// The walk has no timeout of its own, so it runs in a child process that the deadline kills;
// the counters stop being asked for just before it. Fails, with `environment` set, when the
// libraries or the device are missing or the walk fails (naming the device and what libibnetdisc
// said), and when the deadline passes first.
Expected<Subnet> discover_fabric(const DiscoveryOptions& options, const Deadline& deadline);

}  // namespace ibkit
