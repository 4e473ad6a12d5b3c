#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// cpu.governor: every CPU runs [expect].cpu_governor; skipped where there is no cpufreq.
void check_cpu_governor(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
