#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// memlock: RLIMIT_MEMLOCK as this process sees it is at least [expect].memlock.
void check_memlock(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
