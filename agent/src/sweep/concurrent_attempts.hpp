#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sweep/pair_attempt.hpp"

namespace ibkit {

// Runs `count` attempts at once, attempt i on a thread of its own as `attempt(i)`, and returns
// when all have finished. On the calling thread, `collect(i, result)` gets each result as it
// comes in, and `tick(finished)` (by attempt: whether it has come in) runs every quarter second
// and after each collection round, for a progress line. When no more threads can be started,
// the attempts not started yet are collected as not_run, saying why; those started finish.
// `attempt` must return by its own deadline: nothing here interrupts it.
void run_concurrent_attempts(std::size_t count,
                             const std::function<PairAttempt(std::size_t)>& attempt,
                             const std::function<void(std::size_t, PairAttempt)>& collect,
                             const std::function<void(const std::vector<bool>&)>& tick);

}  // namespace ibkit
