#include "util/rate_limit.hpp"

namespace ibkit {

std::optional<int> RateLimit::admit(Clock::time_point now) {
  if (last_ && now - *last_ < interval_) {
    ++held_back_;
    return std::nullopt;
  }
  last_ = now;
  const int held = held_back_;
  held_back_ = 0;
  return held;
}

}  // namespace ibkit
