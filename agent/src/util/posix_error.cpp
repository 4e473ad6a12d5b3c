#include "util/posix_error.hpp"

#include <cstring>

namespace ibkit {

std::string errno_text(int errnum) { return std::strerror(errnum); }

Error posix_error(const std::string& context, int errnum) {
  return Error{context + ": " + errno_text(errnum), false, errnum};
}

}  // namespace ibkit
