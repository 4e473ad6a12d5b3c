#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/figures.hpp"

namespace ibkit {

// What one size of a latency or bandwidth test measured.
struct SizeMeasurement {
  std::uint64_t size = 0;
  std::uint64_t iterations = 0;  // latency: round trips; bandwidth: messages (all QPs)
  std::optional<LatencyStats> latency;
  std::optional<Throughput> bandwidth;  // bidirectional: both directions added up
  // Bidirectional, each way on its own: this end's sends to the other, and the other's to it.
  // A fault in one direction hides in the sum; these show it.
  std::optional<Throughput> to_peer;
  std::optional<Throughput> from_peer;
  std::uint64_t bytes = 0;
  double seconds = 0;
};

// A whole verbs test against one peer: the sizes measured (kept even when a later size fails),
// the devices on both ends and the port counters' movement.
struct VerbsMeasurement {
  std::string test;  // "lat" or "bw"
  std::string op;
  int qps = 1;
  bool bidir = false;
  bool rdma_cm = false;
  std::optional<int> ack_timeout;    // the RC ACK timeout asked for (perftest -u); unset: default
  std::string completions = "poll";  // "poll" (busy-polled) or "events" (completion channel)
  std::string loopback;      // "" against a peer; else this node's ports, "mlx5_0/1" (one port
                             // against itself) or "mlx5_0/1-mlx5_1/1" (two HCAs of the node)
  std::string local_device;  // describe(OpenDevice)
  std::string remote_device;
  std::optional<double> port_data_gbps;  // the local port's data rate, for fraction thresholds
  // The two ends as each side saw its own port (pair/pair_ends.hpp compares them); the path
  // runs at the smaller MTU. Unset when not known (a peer too old to say its rate).
  std::optional<int> local_mtu;  // active MTU, bytes
  std::optional<int> remote_mtu;
  std::optional<double> remote_port_data_gbps;
  std::vector<SizeMeasurement> sizes;
  std::map<std::string, std::int64_t> local_counter_deltas;
  std::map<std::string, std::int64_t> remote_counter_deltas;
  std::string error;  // why the test stopped early; "" when it ran to the end
  bool no_local_device = false;
};

// Finishes a bandwidth size: `measured` holds this end's sends (bytes, iterations, seconds).
// Bidirectional, `other` is the other end's sends: each way keeps its own throughput, and the
// size's figures become the sum over the longer of the two times.
struct DirectionSent {
  std::uint64_t bytes = 0;
  std::uint64_t messages = 0;
  double seconds = 0;
};
void finish_bandwidth_size(SizeMeasurement& measured, const std::optional<DirectionSent>& other);

// The measured size with the smallest message that has latency figures, the one a latency is
// judged and shown by; nullptr when no size has them.
const SizeMeasurement* smallest_latency_size(const VerbsMeasurement& measurement);
// The measured size with the largest message that has bandwidth figures; nullptr when none has.
const SizeMeasurement* largest_bandwidth_size(const VerbsMeasurement& measurement);

}  // namespace ibkit
