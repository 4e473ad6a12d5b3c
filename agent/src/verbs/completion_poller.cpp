#include "verbs/completion_poller.hpp"

#include <algorithm>
#include <poll.h>

#include "verbs/completion_events.hpp"
#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

constexpr unsigned kPollsBetweenClockReads = 1024;
// The longest sleep on a completion channel between two looks at the control connection.
constexpr std::chrono::seconds kHangupLookEvery{1};

// Whether the peer closed the connection `fd` is (never blocks).
bool hung_up(int fd) {
  pollfd watched{fd, POLLRDHUP, 0};
  return ::poll(&watched, 1, 0) > 0 && (watched.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

std::string completion_hint(ibv_wc_status status) {
  switch (status) {
    case IBV_WC_RETRY_EXC_ERR:
      return " (no answer from the peer: its process, node or link is gone)";
    case IBV_WC_RNR_RETRY_EXC_ERR:
      return " (the peer posted no receive in time)";
    case IBV_WC_REM_ACCESS_ERR:
      return " (the peer refused the access: wrong rkey or address)";
    case IBV_WC_WR_FLUSH_ERR:
      return " (the queue pair had already failed)";
    default:
      return "";
  }
}

}  // namespace

Expected<Done> CompletionPoller::check_time() {
  auto now = Deadline::Clock::now();
  if (now >= deadline_.time_point())
    return Error{what_ + ": deadline passed before the test finished"};
  if (now - last_progress_ > stall_) {
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(stall_).count();
    return Error{what_ + ": no completion for " + std::to_string(seconds) +
                 " s (the peer or the link is gone)"};
  }
  if (hangup_fd_ >= 0 && hung_up(hangup_fd_)) {
    return Error{what_ + ": the peer closed the control connection (its agent ended)"};
  }
  return Done{};
}

Expected<int> CompletionPoller::poll(ibv_wc* completions, int capacity) {
  int count = ibv_poll_cq(cq_, capacity, completions);
  if (count < 0) return Error{what_ + ": ibv_poll_cq failed (the device may be gone)"};
  if (count == 0) {
    if (++empty_polls_ % kPollsBetweenClockReads == 0) {
      if (auto time = check_time(); !time) return time.error();
    }
    return 0;
  }
  empty_polls_ = 0;
  last_progress_ = Deadline::Clock::now();
  for (int i = 0; i < count; ++i) {
    if (completions[i].status != IBV_WC_SUCCESS) {
      return Error{what_ + ": work completion error: " + ibv_wc_status_str(completions[i].status) +
                   completion_hint(completions[i].status)};
    }
  }
  return count;
}

Deadline::Clock::time_point CompletionPoller::due_by() const {
  auto due = std::min(last_progress_ + stall_, deadline_.time_point());
  if (hangup_fd_ >= 0) due = std::min(due, Deadline::Clock::now() + kHangupLookEvery);
  return due;
}

Expected<int> CompletionPoller::wait(ibv_wc* completions, int capacity) {
  while (true) {
    auto count = poll(completions, capacity);
    if (!count || *count > 0) return count;
    if (cq_->channel == nullptr) continue;
    if (auto time = check_time(); !time) return time.error();
    ibv_comp_channel* const channels[] = {cq_->channel};
    if (auto events = await_completion_events(channels, due_by()); !events) return events.error();
  }
}

}  // namespace ibkit
