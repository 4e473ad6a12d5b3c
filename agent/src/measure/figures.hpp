#pragma once

#include <cstdint>
#include <vector>

namespace ibkit {

// Latency figures in microseconds, as perftest prints them: typical is the median.
struct LatencyStats {
  double min_us = 0;
  double typical_us = 0;
  double avg_us = 0;
  double stdev_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};

// Computes the figures of `samples_us` (each a one-way time: half a round trip). Percentiles
// use the nearest rank. Returns zeros for no samples.
LatencyStats latency_stats(std::vector<double> samples_us);

// Throughput of `bytes` moved in `seconds` as messages of `message_bytes`.
struct Throughput {
  double mib_per_s = 0;  // 2^20 bytes per second, as perftest's BW columns
  double gbps = 0;       // 10^9 bits per second, as link rates are quoted
  double mpps = 0;       // million messages per second
};
Throughput throughput(std::uint64_t bytes, std::uint64_t messages, double seconds);

}  // namespace ibkit
