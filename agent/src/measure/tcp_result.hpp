#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ibkit {

// What a multi-stream TCP throughput test (tcp/tcp_throughput.hpp) measured.
struct TcpStreamResult {
  std::uint64_t bytes = 0;  // delivered on this stream, both directions
  double seconds = 0;       // this stream's receive window (the longer direction with bidir)
  double gbps = 0;          // 10^9 bits per second
};

struct TcpResult {
  int streams = 0;
  std::uint64_t write_size = 0;
  bool bidir = false;
  std::uint64_t bytes_to_peer = 0;    // client -> server, as the server received them
  std::uint64_t bytes_from_peer = 0;  // server -> client (bidir only)
  std::uint64_t bytes = 0;            // both directions
  // Receive window from the first byte to the last end of stream (the longer of the two
  // receivers with bidir).
  double seconds = 0;
  double gbps = 0;       // bytes * 8 / seconds / 10^9
  double mib_per_s = 0;  // bytes / seconds / 2^20
  // Each way on its own, over its own receiver's window: what a node slow in one direction
  // hides in the sum. From the peer only with bidir; both absent in reports from before.
  std::optional<double> gbps_to_peer;
  std::optional<double> gbps_from_peer;
  std::vector<TcpStreamResult> per_stream;
};

}  // namespace ibkit
