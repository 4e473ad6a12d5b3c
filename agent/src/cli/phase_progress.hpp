#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

#include "cli/output.hpp"

namespace ibkit {

// A line every few seconds while a launched sweep's first phases run ("ibkit sweep: ibkit check:
// 40 of 100 nodes done, 12 s"), and one when the phase ends ("... 100 of 100 nodes done in 31
// s"): a thousand nodes' checks take minutes, and nothing was said until the rounds began.
// done_one() may be called from any thread; the lines come from a thread of its own while
// nothing else writes to the console.
class PhaseProgress {
 public:
  PhaseProgress(Console& console, std::string phase, std::size_t total,
                std::chrono::milliseconds every = std::chrono::seconds(5));
  ~PhaseProgress();
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  void done_one() { done_.fetch_add(1); }

 private:
  void report(bool last);

  Console& console_;
  std::string phase_;
  std::size_t total_;
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<std::size_t> done_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool ending_ = false;
  std::thread ticker_;
};

}  // namespace ibkit
