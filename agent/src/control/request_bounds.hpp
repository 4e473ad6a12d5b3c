#pragma once

#include <cstddef>
#include <cstdint>

namespace ibkit {

// What a test request from the wire is held to (request_from_json, and the options that make
// one).
struct RequestBounds {
  static constexpr std::uint64_t kMinSize = 1;
  static constexpr std::uint64_t kMaxSize = 8ull << 20;  // 8 MiB, perftest -a's largest
  static constexpr std::size_t kMaxSizes = 32;
  static constexpr int kMaxQps = 64;
  static constexpr std::uint64_t kMaxIters = 10'000'000;
  static constexpr double kMaxDurationS = 300;
  static constexpr int kMaxTxDepth = 4096;
  static constexpr int kMaxRail = 63;
  static constexpr int kMinAckTimeout = 1;  // 0 would mean no timeout: a lost ACK never retried
  static constexpr int kMaxAckTimeout = 31;
};

}  // namespace ibkit
