#pragma once

#include <fstream>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

namespace ibkit::test {

// In a forked child: limits the address space to what the process uses now and three 8 MiB
// thread stacks, so starting a fourth thread fails the way a pids cgroup or a full address
// space makes it fail in production. Exits 3 when the limit cannot be set.
inline void leave_room_for_three_threads() {
  mallopt(M_ARENA_MAX, 1);  // threads share the main heap instead of reserving their own
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  const rlim_t room =
      static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (24u << 20);
  const rlimit limit{room, room};
  if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
}

}  // namespace ibkit::test
