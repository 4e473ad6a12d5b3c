#pragma once

#include <string>

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

}  // namespace ibkit
