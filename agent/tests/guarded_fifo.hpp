#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace ibkit::test {

// A FIFO in the temporary directory, for a test to hand to a file reader. A reader that opens
// it without O_NONBLOCK waits for a writer forever (the bug such tests guard against); if the
// FIFO is still in use after `seconds`, a watchdog opens and closes its write end once, so
// that reader sees an empty file and the test fails instead of hanging.
class GuardedFifo {
 public:
  explicit GuardedFifo(const std::string& name, int seconds = 5);
  ~GuardedFifo();
  GuardedFifo(const GuardedFifo&) = delete;
  GuardedFifo& operator=(const GuardedFifo&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::atomic<bool> done_{false};
  std::thread watchdog_;
};

}  // namespace ibkit::test
