#pragma once

#include <optional>
#include <string>

#include "util/run_lock.hpp"

namespace ibkit {

// Runs that share a --state file (the timer's and one by hand, slurmd's health check and
// another, two `ibkit fabric`s) take turns from reading it to writing it, through FILE.lock
// beside it: each judges what changed since the run before it, and none rewrites the file from
// a baseline the other has since replaced.
struct StateTurn {
  std::optional<RunLock> lock;
  std::string problem;  // why the turn was not had, starting with the lock's path
};

// Waits up to `wait_seconds` for the turn at `state_path`. A run that waits longer does without
// the file: `problem` says so, ending with "this run <without_it> and left FILE as it was".
StateTurn take_state_turn(const std::string& state_path, double wait_seconds,
                          const std::string& without_it);

}  // namespace ibkit
