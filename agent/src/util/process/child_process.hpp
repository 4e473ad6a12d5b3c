#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// What a finished child process left: its exit status and everything it wrote.
struct ChildOutput {
  int exit_status = -1;  // the exit code; 128+N when signal N ended it
  std::string out;
  std::string err;
};

// The exit code of a waitpid() status; 128+N when signal N ended the process, -1 otherwise.
int decode_wait_status(int status);

// Runs argv[0] (searched on PATH when it has no '/') with `argv` as its arguments, directly
// (no shell: an argument with spaces or quotes reaches the child as one word), stdin from
// /dev/null, in a process group of its own. On success returns its exit status and output
// (each stream capped at 1 MiB). Fails with an Error when it cannot start (the message says
// "not found" for a missing program) or when `deadline` passes first: then the whole group is
// killed (SIGKILL) and reaped, and the message says it did not finish in time. `stop`, when
// given, is asked every 100 ms: once it says yes the group is killed the same way, and the
// message says it was stopped.
Expected<ChildOutput> run_child(const std::vector<std::string>& argv, const Deadline& deadline,
                                const std::function<bool()>& stop = {});

// Runs `work` in a forked copy of this process, in a process group of its own, its stderr
// captured (1 MiB) and `work`'s argument a pipe whose content becomes `out` (up to `out_cap`
// bytes); `work`'s return value is the exit status (an exception in it is 4). For work that
// cannot be bounded from inside: a library call with no timeout of its own. Call it only while
// this process has one thread (fork copies the caller alone). Fails as run_child does, naming
// `name`, when the deadline passes first or the fork fails.
Expected<ChildOutput> run_forked(const std::string& name, const std::function<int(int)>& work,
                                 const Deadline& deadline, std::size_t out_cap);

}  // namespace ibkit
