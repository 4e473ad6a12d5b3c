#include "util/process/bounded_threads.hpp"

#include <atomic>
#include <chrono>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <catch2/catch.hpp>

#include "thread_room.hpp"

namespace ibkit {

using namespace std::chrono_literals;

TEST_CASE("bounded threads: every item once, never more threads at once than asked", "[util]") {
  constexpr std::size_t kItems = 40;
  std::vector<std::atomic<int>> done(kItems);
  std::atomic<int> running{0};
  std::atomic<int> most_running{0};
  run_on_bounded_threads(kItems, 4, [&](std::size_t i) {
    const int now = ++running;
    for (int seen = most_running; now > seen && !most_running.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(2ms);
    --running;
    ++done[i];
  });
  for (const auto& count : done) CHECK(count == 1);
  CHECK(most_running <= 4);
  CHECK(most_running >= 2);  // the calling thread and at least one more
}

TEST_CASE("bounded threads: an exception in any thread reaches the caller after all are joined",
          "[util]") {
  // It was std::terminate on a helper thread: out of memory aborted `sweep --rails all`.
  for (const std::size_t thrower : {std::size_t{0}, std::size_t{17}, std::size_t{39}}) {
    std::atomic<int> finished{0};
    bool thrown = false;
    try {
      run_on_bounded_threads(40, 4, [&](std::size_t i) {
        std::this_thread::sleep_for(1ms);
        if (i == thrower) throw std::bad_alloc();
        ++finished;
      });
    } catch (const std::bad_alloc&) {
      thrown = true;
    }
    CHECK(thrown);
    CHECK(finished < 40);
  }
}

TEST_CASE("bounded threads: nothing to do returns at once, one thread works alone", "[util]") {
  int calls = 0;
  run_on_bounded_threads(0, 8, [&](std::size_t) { ++calls; });
  CHECK(calls == 0);
  std::vector<std::size_t> order;
  run_on_bounded_threads(3, 1, [&](std::size_t i) { order.push_back(i); });
  CHECK(order == std::vector<std::size_t>{0, 1, 2});  // no second thread: no race on order
}

TEST_CASE("bounded threads: out of threads, the work is still all done, without an abort",
          "[util]") {
  // sweep --rails all started a thread per host at once; when one could not be started the
  // process died of std::terminate. Here the address space leaves room for a few stacks.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    test::leave_room_for_three_threads();
    constexpr std::size_t kItems = 4096;
    std::vector<std::atomic<int>> done(kItems);
    run_on_bounded_threads(kItems, kItems, [&](std::size_t i) {
      std::this_thread::sleep_for(50us);
      ++done[i];
    });
    for (const auto& count : done) {
      if (count != 1) _exit(2);
    }
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  INFO("wait status " << status);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace ibkit
