#include "util/process/bounded_threads.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace ibkit {

void run_on_bounded_threads(std::size_t count, std::size_t most,
                            const std::function<void(std::size_t)>& work) {
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  // An exception leaving a thread's function is std::terminate: the first one is kept, no item
  // is handed out after it, and it is thrown again once every thread has been joined.
  const auto take_items = [&] {
    try {
      for (std::size_t i = next++; i < count; i = next++) work(i);
    } catch (...) {
      next = count;
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  const std::size_t at_once = std::min(count, std::max<std::size_t>(most, 1));
  const std::size_t helpers = at_once == 0 ? 0 : at_once - 1;  // the caller is one
  std::vector<std::thread> threads;
  threads.reserve(helpers);  // growing the vector must not destroy joinable threads
  for (std::size_t i = 0; i < helpers; ++i) {
    try {
      threads.emplace_back(take_items);
    } catch (const std::system_error&) {
      break;  // no more threads: those started, and this one, take the rest
    }
  }
  take_items();
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace ibkit
