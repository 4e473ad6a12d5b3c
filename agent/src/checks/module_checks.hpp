#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// module.loaded: every module in [expect].modules is loaded or built in.
void check_modules(const CheckContext& context, CheckResults& results);

// gpu.direct: where an NVIDIA GPU is present (or [expect].gpu_direct = "required"), a
// GPUDirect RDMA path works, and the result names it: peermem (nvidia_peermem registered with
// an RDMA core that takes peer memory, as nv_mem or nv_mem_nc) or DMA-BUF (the open GPU kernel
// modules on Linux 5.12 or later, no nvidia_peermem needed). Fails naming what is missing for
// either path; skipped without NVIDIA GPUs under "auto" (AMD GPUs need no nvidia_peermem).
void check_gpu_direct(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
