#include "util/process/descriptor_room.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>

namespace ibkit {
namespace {

constexpr std::size_t kUsualLimit = 1024;
// The kernel's own default of fs.nr_open, when /proc does not say.
constexpr rlim_t kUsualNrOpen = 1 << 20;

// What RLIMIT_NOFILE can be set to at most: setrlimit refuses RLIM_INFINITY for it.
rlim_t kernel_most() {
  std::ifstream in("/proc/sys/fs/nr_open");
  unsigned long long most = 0;
  if (in >> most && most > 0) return static_cast<rlim_t>(most);
  return kUsualNrOpen;
}

std::size_t open_descriptors() {
  std::error_code error;
  std::size_t count = 0;
  // The iterator's own descriptor is counted too: one more than the caller holds, erring safe.
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end; !error && it != end;
       it.increment(error)) {
    ++count;
  }
  return error ? 0 : count;
}

std::size_t as_size(rlim_t value) {
  return value == RLIM_INFINITY ? static_cast<std::size_t>(kernel_most())
                                : static_cast<std::size_t>(value);
}

}  // namespace

DescriptorRoom raise_descriptor_limit() {
  DescriptorRoom room;
  room.open = open_descriptors();
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    room.limit = room.hard_limit = kUsualLimit;
    return room;
  }
  const rlim_t most = limit.rlim_max == RLIM_INFINITY ? kernel_most() : limit.rlim_max;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < most) {
    rlimit raised = limit;
    raised.rlim_cur = most;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  room.limit = as_size(limit.rlim_cur);
  room.hard_limit = as_size(limit.rlim_max);
  return room;
}

bool out_of_descriptors(int errnum) { return errnum == EMFILE || errnum == ENFILE; }

}  // namespace ibkit
