#include "verbs/completion_events.hpp"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <vector>

#include "util/posix_error.hpp"
#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

// poll()'s timeout until `until`, rounded up so a sleep never ends just before it.
int timeout_ms(Deadline::Clock::time_point until) {
  const auto left = until - Deadline::Clock::now();
  if (left <= Deadline::Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 60'000 ? 60'000 : static_cast<int>(ms);
}

// Takes every event waiting on `channel`; returns how many.
Expected<int> take_events(ibv_comp_channel* channel) {
  int taken = 0;
  while (true) {
    ibv_cq* cq = nullptr;
    void* context = nullptr;
    if (ibv_get_cq_event(channel, &cq, &context) != 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return taken;
      return verbs_error("ibv_get_cq_event", errno);
    }
    ibv_ack_cq_events(cq, 1);
    ++taken;
    if (auto armed = arm_completion_queue(cq); !armed) return armed.error();
  }
}

}  // namespace

Expected<CompletionChannelPtr> create_completion_channel(ibv_context* context) {
  CompletionChannelPtr channel(ibv_create_comp_channel(context));
  if (!channel) return verbs_error("ibv_create_comp_channel", errno);
  const int flags = fcntl(channel->fd, F_GETFL);
  if (flags < 0 || fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    return posix_error("completion channel: fcntl O_NONBLOCK", errno);
  }
  return channel;
}

Expected<Done> arm_completion_queue(ibv_cq* cq) {
  if (int rc = ibv_req_notify_cq(cq, 0); rc != 0) return verbs_error("ibv_req_notify_cq", rc);
  return Done{};
}

Expected<int> await_completion_events(std::span<ibv_comp_channel* const> channels,
                                      Deadline::Clock::time_point until) {
  std::vector<pollfd> fds;
  fds.reserve(channels.size());
  for (auto* channel : channels) fds.push_back({channel->fd, POLLIN, 0});
  while (true) {
    const int ready = ::poll(fds.data(), fds.size(), timeout_ms(until));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return posix_error("poll on the completion channel", errno);
    }
    if (ready == 0) {
      if (Deadline::Clock::now() >= until) return 0;
      continue;  // poll() slept its longest slice; `until` is later
    }
    int taken = 0;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if ((fds[i].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0)
        return Error{"the completion channel failed (the device may be gone)"};
      if ((fds[i].revents & POLLIN) == 0) continue;
      auto events = take_events(channels[i]);
      if (!events) return events.error();
      taken += *events;
    }
    // A readable channel whose event another reader took: sleep again, within the time left.
    if (taken > 0 || Deadline::Clock::now() >= until) return taken;
  }
}

}  // namespace ibkit
