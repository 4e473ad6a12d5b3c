#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"
#include "verbs/verbs_side.hpp"

namespace ibkit {

enum class PingRole { kInitiator, kResponder };

struct LatencyPlan {
  std::string op = "send";  // "send" (ib_send_lat) or "write" (ib_write_lat)
  std::size_t size = 2;
  std::uint64_t iters = 1000;
  std::chrono::milliseconds stall{10000};
  int hangup_fd = -1;  // the control connection: its peer hanging up ends the test
};

// Ping-pong on queue pair 0. The initiator sends, the responder answers each message; the
// initiator returns one sample per iteration, half the round trip in microseconds (the
// responder returns none). Send: receives must be posted (post_all_receives) on both sides
// before the peers start. Write: each side polls the last byte of its inbox (the first half of
// the region) and writes from its outbox (the second half); call reset_latency_inbox on both
// sides before they start.
Expected<std::vector<double>> run_latency(VerbsSide& side, PingRole role, const LatencyPlan& plan,
                                          const Deadline& deadline);

// Ping-pong between two queue pairs of this node (ibkit pair --loopback), driven by one thread:
// `initiator` pings, `responder` answers, as run_latency does on two nodes. Only one message is
// in flight at a time, so the thread always waits where the next completion must come (the
// responder's receive, then the initiator's): the round trip is the same one two nodes measure,
// with no second thread competing for the CPU. Returns one sample per iteration, half the round
// trip in microseconds. Both sides need their receives posted (send) or their inbox reset
// (write) first.
Expected<std::vector<double>> run_loopback_latency(VerbsSide& initiator, VerbsSide& responder,
                                                   const LatencyPlan& plan,
                                                   const Deadline& deadline);

// Clears the byte a write-latency ping of `size` lands on, so a stale value is never read as
// this run's.
void reset_latency_inbox(VerbsSide& side, std::size_t size);

}  // namespace ibkit
