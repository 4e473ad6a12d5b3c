#include "util/hostname.hpp"

#include <unistd.h>

namespace ibkit {

std::string local_hostname() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
}

}  // namespace ibkit
