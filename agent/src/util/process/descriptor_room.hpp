#pragma once

#include <cstddef>

namespace ibkit {

// How many more files (descriptors: pipes, sockets, files) this process may open.
struct DescriptorRoom {
  std::size_t limit = 0;       // the soft RLIMIT_NOFILE: what opening a file is held to
  std::size_t hard_limit = 0;  // the most the soft limit can be raised to without privilege
  std::size_t open = 0;        // descriptors open now
  std::size_t free() const { return limit > open ? limit - open : 0; }
};

// Raises this process's soft RLIMIT_NOFILE to its hard limit (an unlimited hard limit to the
// kernel's fs.nr_open), for a process that holds many pipes and sockets at once, and returns
// the room then. Never fails: when the limit cannot be read or raised, the room is what it was
// (a limit it cannot read counts as 1,024, the usual default).
DescriptorRoom raise_descriptor_limit();

// Whether `errnum` means this process or the system has no descriptor left (EMFILE, ENFILE):
// the machine's limit, not a failure of what the descriptor was for.
bool out_of_descriptors(int errnum);

}  // namespace ibkit
