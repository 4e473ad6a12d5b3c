#pragma once

#include <string>

namespace ibkit {

// This machine's host name, or "unknown" when the system will not say.
std::string local_hostname();

}  // namespace ibkit
