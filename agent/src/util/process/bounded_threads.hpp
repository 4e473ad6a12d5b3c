#pragma once

#include <cstddef>
#include <functional>

namespace ibkit {

// Runs work(i) for every i in [0, count) on at most `most` threads at once, the calling thread
// among them, and returns when all are done. Where no more threads can be started (a pids
// cgroup such as systemd's TasksMax, or the address space), those already running and the
// caller do the rest: running out of threads slows the work down and never aborts it. The first
// exception work() throws (std::bad_alloc) stops the handing out of items and is thrown here once
// every thread has finished, never std::terminate.
void run_on_bounded_threads(std::size_t count, std::size_t most,
                            const std::function<void(std::size_t)>& work);

}  // namespace ibkit
