#pragma once

#include <chrono>

namespace ibkit {

// A point in time after which a wait gives up. Every network wait in ibkit takes one.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  static Deadline after(std::chrono::milliseconds timeout) {
    return Deadline(Clock::now() + timeout);
  }
  static Deadline after_seconds(double seconds) {
    return after(std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0)));
  }

  bool expired() const { return Clock::now() >= at_; }
  // Milliseconds left, clamped to [0, INT_MAX]: what poll() takes.
  int remaining_ms() const;
  // The earlier of the two.
  Deadline min(const Deadline& other) const { return at_ < other.at_ ? *this : other; }
  Clock::time_point time_point() const { return at_; }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  Clock::time_point at_;
};

}  // namespace ibkit
