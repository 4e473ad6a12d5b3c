#include "verbs/verbs_error.hpp"

#include <cerrno>
#include <string>

#include "util/posix_error.hpp"

namespace ibkit {

Error verbs_error(std::string_view call, int error_number) {
  std::string message = std::string(call) + ": " + errno_text(error_number);
  switch (error_number) {
    case ENOMEM:
      message += " (pinned memory is limited by memlock: ulimit -l; set it to unlimited)";
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
