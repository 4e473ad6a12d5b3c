#include "sweep/concurrent_attempts.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

namespace ibkit {

void run_concurrent_attempts(std::size_t count,
                             const std::function<PairAttempt(std::size_t)>& attempt,
                             const std::function<void(std::size_t, PairAttempt)>& collect,
                             const std::function<void(const std::vector<bool>&)>& tick) {
  using namespace std::chrono_literals;
  std::vector<std::optional<PairAttempt>> results(count);
  std::vector<std::thread> threads;
  threads.reserve(count);  // growing the vector must not destroy joinable threads
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t ready = 0;  // results set, under `mutex`
  for (std::size_t i = 0; i < count; ++i) {
    try {
      threads.emplace_back([&, i] {
        PairAttempt result = attempt(i);
        std::lock_guard lock(mutex);
        results[i] = std::move(result);
        ++ready;
        changed.notify_all();
      });
    } catch (const std::system_error& error) {
      // Out of threads: the attempts not started yet are left out; those started finish.
      std::lock_guard lock(mutex);
      for (std::size_t j = i; j < count; ++j) {
        results[j] =
            attempt_of(PairStatus::kNotRun,
                       std::string("not run: could not start a thread (") + error.what() + ")");
        ++ready;
      }
      break;
    }
  }
  {
    std::unique_lock lock(mutex);
    std::vector<bool> finished(count, false);
    for (std::size_t done = 0; done < count;) {
      // Results set before the wait began notified nobody: waiting then would cost a whole
      // quarter second a step whose pairs end at once (a skipped node's, a retest's).
      changed.wait_for(lock, 250ms, [&] { return ready > done; });
      for (std::size_t i = 0; i < count; ++i) {
        if (!results[i] || finished[i]) continue;
        collect(i, std::move(*results[i]));
        finished[i] = true;
        ++done;
      }
      tick(finished);
    }
  }
  for (auto& thread : threads) thread.join();
}

}  // namespace ibkit
