#pragma once

#include <chrono>
#include <string>

#include <infiniband/verbs.h>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Busy-polls a completion queue the way a benchmark must (no sleeping), but never for ever:
// it gives up at the deadline, or when no completion arrived for `stall` (the peer or the link
// is gone), and turns an error completion into an Error that names its status. A CQ created on
// a completion channel (--events) is waited for by its events instead of spinning
// (verbs/completion_events.hpp); the CQ must have been armed once. With a `hangup_fd` (the
// control connection's, Channel::hangup_fd) it also gives up once the peer closed that
// connection: a peer whose agent ended leaves no completion to wait the stall timeout for, and
// a node that waited would be busy for the next pair of a sweep.
class CompletionPoller {
 public:
  CompletionPoller(ibv_cq* cq, const Deadline& deadline, std::chrono::milliseconds stall,
                   std::string what, int hangup_fd = -1)
      : cq_(cq),
        deadline_(deadline),
        stall_(stall),
        what_(std::move(what)),
        hangup_fd_(hangup_fd) {}

  // Polls once for up to `capacity` completions; returns how many (0 is fine). Fails on an
  // error completion, on the deadline, or on a stall.
  Expected<int> poll(ibv_wc* completions, int capacity);

  // Polls until at least one completion arrived; returns how many. With a completion channel
  // it sleeps on the channel between polls, never past the deadline or the stall timeout.
  Expected<int> wait(ibv_wc* completions, int capacity);

  // The Error poll() gives once the deadline or the stall timeout has passed, or the peer
  // hung up; Done before.
  Expected<Done> check_time();
  // When the next completion is due at the latest: the deadline, or the stall timeout after
  // the last completion. A sleep for events ends by then.
  Deadline::Clock::time_point due_by() const;

 private:
  ibv_cq* cq_;
  Deadline deadline_;
  std::chrono::milliseconds stall_;
  std::string what_;
  int hangup_fd_;
  Deadline::Clock::time_point last_progress_ = Deadline::Clock::now();
  unsigned empty_polls_ = 0;
};

}  // namespace ibkit
