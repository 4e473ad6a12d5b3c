#pragma once

#include <optional>
#include <string>

#include "util/expected.hpp"
#include "util/files/run_lock.hpp"

namespace ibkit {

// Runs that share a --state file (the timer's and one by hand, slurmd's health check and
// another, two `ibkit fabric`s) take turns from reading it to writing it, through FILE.lock
// beside it: each judges what changed since the run before it, and none rewrites the file from
// a baseline the other has since replaced.
struct StateTurn {
  std::optional<RunLock> lock;
  std::string problem;  // why the turn was not had, starting with the lock's path
};

// Where the turn's lock for `state_path` lives: FILE.lock beside it when no other user can
// write FILE's directory (/var/lib/ibkit); in a shared one (/tmp) anyone could make FILE.lock
// first and hold every run off its file, so there it is a lock named for FILE's absolute path
// in this user's own directory ($XDG_RUNTIME_DIR/ibkit, /run/ibkit for root, else
// /tmp/ibkit-UID, made 0700). An Error when that directory is not this user's alone.
Expected<std::string> state_lock_path(const std::string& state_path);

// Waits up to `wait_seconds` for the turn at `state_path`. A run that waits longer does without
// the file: `problem` says so, ending with "this run <without_it> and left FILE as it was".
StateTurn take_state_turn(const std::string& state_path, double wait_seconds,
                          const std::string& without_it);

}  // namespace ibkit
