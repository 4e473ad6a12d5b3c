#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"
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
  int hangup_fd = -1;  // the control connection: its peer hanging up ends the test
};

struct BandwidthResult {
  std::uint64_t messages = 0;  // data operations this side completed (or received)
  std::uint64_t bytes = 0;
  double seconds = 0;  // first post to last completion
};

// Runs the data phase on every queue pair of `side` at once. Sends end with an
// end-of-test SEND per queue pair so the receiver knows when to stop, whatever the mode.
// Receives for a send test must be posted before the peers start (post_all_receives).
// With completion events (create_verbs_side) the loop sleeps on the side's completion channel
// whenever it can neither post nor reap, instead of spinning.
Expected<BandwidthResult> run_bandwidth(VerbsSide& side, const BandwidthPlan& plan,
                                        const Deadline& deadline);

// One end of a bandwidth test that one thread drives together with others.
struct BandwidthEnd {
  VerbsSide* side = nullptr;
  BandwidthPlan plan;  // post_data and receive_sends say what this end does
};

// Runs the data phase of every end in one thread, as run_bandwidth runs one (ibkit pair
// --loopback: the two queue pairs of one node): each pass posts and reaps on every end; with
// completion events it sleeps on all their channels when no end could do anything. Returns
// one result per end, in order: what it posted, or for an end that only receives, what it
// received.
Expected<std::vector<BandwidthResult>> run_bandwidth_ends(std::span<const BandwidthEnd> ends,
                                                          const Deadline& deadline);

}  // namespace ibkit
