// A step's pairs run at once, each on a thread of its own (the coordinator's run_step).
#include "sweep/concurrent_attempts.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <catch2/catch.hpp>

using namespace ibkit;

TEST_CASE("concurrent attempts: all run at once, each result collected once by its index",
          "[sweep]") {
  using namespace std::chrono_literals;
  std::vector<std::string> collected(3);
  int collections = 0;
  std::vector<bool> last_tick;
  // Each attempt waits for all three to have started: run one after another, the first would
  // wait out its 10 s and say so.
  std::mutex mutex;
  std::condition_variable all_started;
  int started = 0;
  run_concurrent_attempts(
      3,
      [&](std::size_t i) {
        std::unique_lock lock(mutex);
        ++started;
        all_started.notify_all();
        const bool together = all_started.wait_for(lock, 10s, [&] { return started == 3; });
        return attempt_of(together ? PairStatus::kPass : PairStatus::kFailed,
                          "attempt " + std::to_string(i));
      },
      [&](std::size_t i, PairAttempt attempt) {
        collected[i] = attempt.reason;
        CHECK(attempt.status == PairStatus::kPass);
        ++collections;
      },
      [&](const std::vector<bool>& finished) { last_tick = finished; });
  CHECK(collections == 3);
  CHECK(collected == std::vector<std::string>{"attempt 0", "attempt 1", "attempt 2"});
  CHECK(last_tick == std::vector<bool>{true, true, true});
}

TEST_CASE("concurrent attempts: none to run returns at once", "[sweep]") {
  bool called = false;
  run_concurrent_attempts(
      0,
      [&](std::size_t) {
        called = true;
        return PairAttempt{};
      },
      [&](std::size_t, PairAttempt) { called = true; }, [](const std::vector<bool>&) {});
  CHECK_FALSE(called);
}
