#pragma once

#include <string>

#include "util/expected.hpp"

namespace ibkit {

// The one place an errno value becomes text: strerror's words for `errnum`.
std::string errno_text(int errnum);

// The one place an errno value becomes an Error: "<context>: <errno_text(errnum)>", the value
// kept in its errnum.
Error posix_error(const std::string& context, int errnum);

}  // namespace ibkit
