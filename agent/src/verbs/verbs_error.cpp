#include "verbs/verbs_error.hpp"

#include <cerrno>
#include <string>
#include <sys/resource.h>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

// "64 KiB" or "unlimited": the memlock soft limit this process runs under.
std::string memlock_limit_text() {
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return "unknown";
  if (limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(limit.rlim_cur / 1024) + " KiB";
}

}  // namespace

Error verbs_error(std::string_view call, int error_number) {
  std::string message = std::string(call) + ": " + errno_text(error_number);
  switch (error_number) {
    case ENOMEM:
      message += " (pinned memory is limited by memlock, " + memlock_limit_text() +
                 " here: ulimit -l; set it to unlimited)";
      break;
    case EPERM:
    case EACCES:
      message += " (no permission for /dev/infiniband/uverbs*: run as root or join the rdma group)";
      break;
    case ENODEV:
      message += " (the device went away: check the driver and dmesg)";
      break;
    default:
      break;
  }
  return Error{message};
}

}  // namespace ibkit
