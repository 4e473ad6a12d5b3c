#pragma once

#include "checks/check_context.hpp"
#include "checks/check_result.hpp"

namespace ibkit {

// module.loaded: every module in [expect].modules is loaded or built in.
void check_modules(const CheckContext& context, CheckResults& results);

// gpu.peermem: where an NVIDIA GPU is present (or [expect].gpu_direct = "required"),
// nvidia_peermem is loaded and registered with the RDMA core, not just loaded.
void check_gpu_direct(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
