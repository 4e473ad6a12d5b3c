#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "util/deadline.hpp"
#include "util/expected.hpp"
#include "verbs/verbs_side.hpp"

namespace ibkit {

struct BandwidthPlan {
  std::string op = "write";  // "write", "read" or "send": one engine for all three
  std::size_t size = 65536;
  std::uint64_t iters = 5000;  // per queue pair; ignored when duration_s > 0
  double duration_s = 0;
  std::uint32_t tx_depth = 128;       // outstanding work requests per queue pair
  std::uint32_t cq_moderation = 100;  // one signaled completion per this many requests
  bool post_data = true;              // this side initiates the operations
  bool receive_sends = false;         // this side consumes the peer's SENDs (op "send" only)
  std::chrono::milliseconds stall{10000};
};

struct BandwidthResult {
  std::uint64_t messages = 0;  // data operations this side completed (or received)
  std::uint64_t bytes = 0;
  double seconds = 0;  // first post to last completion
};

// Runs the data phase on every queue pair of `side` at once. Sends end with an
// end-of-test SEND per queue pair so the receiver knows when to stop, whatever the mode.
// Receives for a send test must be posted before the peers start (post_all_receives).
Expected<BandwidthResult> run_bandwidth(VerbsSide& side, const BandwidthPlan& plan,
                                        const Deadline& deadline);

}  // namespace ibkit
