#include "verbs/verbs_error.hpp"

#include <cerrno>
#include <cstring>
#include <string>

namespace ibkit {

Error verbs_error(std::string_view call, int error_number) {
  std::string message = std::string(call) + ": " + std::strerror(error_number);
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
