#pragma once

#include <chrono>
#include <optional>

namespace ibkit {

// Lets one event through per interval and counts the ones it holds back, so that a flood (of
// refused connections, say) costs a log line per interval, each saying how many it stands for.
// Not thread-safe: the caller serialises.
class RateLimit {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateLimit(std::chrono::milliseconds interval) : interval_(interval) {}

  // When the event at `now` may be reported: how many were held back since the last one that
  // was (0 for none). nullopt when it is held back itself.
  std::optional<int> admit(Clock::time_point now = Clock::now());
  // Events held back since the last one admitted.
  int held_back() const { return held_back_; }

 private:
  std::chrono::milliseconds interval_;
  std::optional<Clock::time_point> last_;
  int held_back_ = 0;
};

}  // namespace ibkit
