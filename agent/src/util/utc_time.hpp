#pragma once

#include <string>

namespace ibkit {

// The current time as "2026-11-22T05:24:49Z".
std::string utc_timestamp();

}  // namespace ibkit
