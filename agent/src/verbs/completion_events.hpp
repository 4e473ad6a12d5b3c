#pragma once

#include <span>

#include <infiniband/verbs.h>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"
#include "verbs/owners.hpp"

namespace ibkit {

// Event-driven completions (perftest -e, seed 001's CompletionPoller): the CQs of a side are
// created on one completion channel and armed once (arm_completion_queue); whoever has nothing
// left to poll sleeps on the channel (await_completion_events), which acknowledges each event
// and re-arms its CQ; the CQ is then drained with ibv_poll_cq (CompletionPoller). A CQ is
// always either armed or has an event waiting in its channel, so no completion is slept
// through, and every event is acknowledged at once, so the CQ can always be destroyed.

// A completion channel whose file descriptor never blocks: a wait on it is a poll() with a
// deadline. Fails with the verbs error.
Expected<CompletionChannelPtr> create_completion_channel(ibv_context* context);

// Asks for an event at the CQ's next completion (ibv_req_notify_cq). Fails with the verbs error.
Expected<Done> arm_completion_queue(ibv_cq* cq);

// Sleeps in poll() on `channels` until one has an event, or until `until`. Takes every waiting
// event (ibv_get_cq_event), acknowledges it (ibv_ack_cq_events) and re-arms its CQ. Returns the
// number of events taken: 0 when `until` passed first. Fails when poll() or the channel fails.
Expected<int> await_completion_events(std::span<ibv_comp_channel* const> channels,
                                      Deadline::Clock::time_point until);

}  // namespace ibkit
