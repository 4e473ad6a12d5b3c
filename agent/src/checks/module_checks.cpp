#include "checks/module_checks.hpp"

#include "sysfs/host.hpp"
#include "util/text.hpp"

namespace ibkit {

void check_modules(const CheckContext& context, CheckResults& results) {
  for (const auto& module : context.config.expect.modules) {
    bool loaded = module_present(context.root, module);
    results.push_back({"module.loaded", module, loaded ? Status::kPass : Status::kFail,
                       loaded ? "loaded" : "not loaded", "loaded",
                       loaded ? ""
                              : "modprobe " + module +
                                    " now, and list it in "
                                    "/etc/modules-load.d/ so it loads at boot"});
  }
}

void check_gpu_direct(const CheckContext& context, CheckResults& results) {
  const GpuDirect mode = context.config.expect.gpu_direct;
  if (mode == GpuDirect::kOff) return;
  const auto gpus = nvidia_gpus(context.root);
  if (gpus.empty() && mode == GpuDirect::kAuto) {
    results.push_back({"gpu.peermem", "nvidia_peermem", Status::kSkip, "no NVIDIA GPU", "",
                       "GPUDirect RDMA only matters on GPU nodes"});
    return;
  }
  const bool loaded = module_present(context.root, "nvidia_peermem");
  const bool obsolete = module_present(context.root, "nv_peer_mem");
  const bool registered = peer_memory_client_registered(context.root, "nv_mem");
  const std::string gpu_note = std::to_string(gpus.size()) + " NVIDIA GPU(s); ";

  CheckResult result{"gpu.peermem",           "nvidia_peermem",
                     Status::kPass,           gpu_note + "nvidia_peermem loaded and registered",
                     "loaded and registered", ""};
  if (!loaded && obsolete) {
    result.status = registered ? Status::kWarn : Status::kFail;
    result.observed = gpu_note + "the obsolete nv_peer_mem is loaded instead";
    result.hint =
        "replace nv_peer_mem with the driver's nvidia_peermem (modprobe -r nv_peer_mem; "
        "modprobe nvidia_peermem) and list nvidia_peermem in /etc/modules-load.d/";
  } else if (!loaded) {
    result.status = Status::kFail;
    result.observed = gpu_note + "nvidia_peermem not loaded";
    result.hint = "modprobe nvidia_peermem and list it in /etc/modules-load.d/ for GPUDirect RDMA";
  } else if (!registered) {
    result.status = Status::kFail;
    result.observed = gpu_note + "nvidia_peermem loaded but not registered as a peer-memory client";
    result.hint =
        "nvidia_peermem did not register with the RDMA core (no "
        "/sys/kernel/mm/memory_peers/nv_mem): it was built against another ib_core; "
        "reinstall the NVIDIA driver after the RDMA stack and reload the module";
  }
  results.push_back(std::move(result));
}

}  // namespace ibkit
