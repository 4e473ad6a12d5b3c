#include "checks/module_checks.hpp"

#include <optional>
#include <string>

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

namespace {

// GPUDirect RDMA by DMA-BUF needs the open GPU kernel modules and an RDMA core that imports
// DMA-BUF memory (ib_umem_dmabuf, Linux 5.12).
constexpr unsigned kDmaBufKernelMajor = 5;
constexpr unsigned kDmaBufKernelMinor = 12;

// What this node offers for GPUDirect RDMA, read once.
struct GpuDirectState {
  bool peermem_loaded = false;
  bool obsolete_loaded = false;   // nv_peer_mem, the out-of-tree predecessor
  std::string registered_client;  // "nv_mem" or "nv_mem_nc"; empty when none registered
  bool peer_memory_core = false;  // ib_core takes peer-memory clients (MOFED/DOCA)
  std::optional<NvidiaDriver> driver;
  std::optional<KernelRelease> kernel;

  bool dma_buf() const {
    return driver && driver->open && kernel &&
           kernel->at_least(kDmaBufKernelMajor, kDmaBufKernelMinor);
  }
};

GpuDirectState read_gpu_direct_state(const SysfsRoot& root) {
  GpuDirectState state;
  state.peermem_loaded = module_present(root, "nvidia_peermem");
  state.obsolete_loaded = module_present(root, "nv_peer_mem");
  for (const char* client : {"nv_mem", "nv_mem_nc"}) {
    if (peer_memory_client_registered(root, client)) {
      state.registered_client = client;
      break;
    }
  }
  state.peer_memory_core = peer_memory_supported(root);
  state.driver = read_nvidia_driver(root);
  state.kernel = read_kernel_release(root);
  return state;
}

std::string driver_text(const GpuDirectState& state) {
  if (!state.driver) return "no NVIDIA driver loaded";
  return std::string(state.driver->open ? "open" : "proprietary") + " NVIDIA modules" +
         (state.driver->version.empty() ? "" : " " + state.driver->version);
}

std::string kernel_text(const GpuDirectState& state) {
  return state.kernel ? "kernel " + state.kernel->text : "kernel unknown";
}

// Why neither path works, and what would make one work.
std::string no_path_hint(const GpuDirectState& state) {
  if (!state.driver) {
    return "the NVIDIA driver is not loaded (no /proc/driver/nvidia/version): install it and "
           "load it (nvidia-smi), then check again";
  }
  if (state.peer_memory_core) {
    return "modprobe nvidia_peermem and list it in /etc/modules-load.d/ (this RDMA stack takes "
           "peer-memory clients)";
  }
  if (state.driver->open) {
    return "the open GPU modules give GPUDirect RDMA through DMA-BUF from Linux 5.12; this is " +
           kernel_text(state) +
           ": boot a newer kernel, or install MLNX_OFED/DOCA-OFED for nvidia_peermem";
  }
  return "this RDMA core has no peer-memory support (a distribution kernel, not MLNX_OFED or "
         "DOCA-OFED), so nvidia_peermem cannot load, and the proprietary NVIDIA modules offer "
         "no DMA-BUF: install the open GPU kernel modules (nvidia-open, R515 or later; NCCL "
         "then uses DMA-BUF), or MLNX_OFED/DOCA-OFED and reload nvidia_peermem";
}

}  // namespace

void check_gpu_direct(const CheckContext& context, CheckResults& results) {
  const GpuDirect mode = context.config.expect.gpu_direct;
  if (mode == GpuDirect::kOff) return;
  const auto gpus = nvidia_gpus(context.root);
  if (gpus.empty()) {
    const auto amd = amd_gpus(context.root);
    const std::string amd_note =
        amd.empty() ? ""
                    : "; " + std::to_string(amd.size()) +
                          " AMD GPU(s): GPUDirect with ROCm needs no nvidia_peermem";
    if (mode == GpuDirect::kAuto) {
      results.push_back({"gpu.direct", "GPUDirect RDMA", Status::kSkip, "no NVIDIA GPU" + amd_note,
                         "",
                         "GPUDirect RDMA through nvidia_peermem or DMA-BUF is for NVIDIA GPUs"});
    } else {
      results.push_back({"gpu.direct", "GPUDirect RDMA", Status::kFail, "no NVIDIA GPU" + amd_note,
                         "an NVIDIA GPU with a GPUDirect RDMA path",
                         amd.empty()
                             ? "[expect].gpu_direct is \"required\" but no NVIDIA GPU (PCI vendor "
                               "0x10de) is present: check lspci and the VM size"
                             : "AMD GPUs have no nvidia_peermem: set [expect].gpu_direct = \"off\" "
                               "(rdma_modules_peermem: off)"});
    }
    return;
  }

  const GpuDirectState state = read_gpu_direct_state(context.root);
  const std::string gpu_note = std::to_string(gpus.size()) + " NVIDIA GPU(s); ";
  CheckResult result{"gpu.direct",
                     "GPUDirect RDMA",
                     Status::kPass,
                     "",
                     "nvidia_peermem registered, or DMA-BUF (open GPU modules, Linux 5.12+)",
                     ""};
  if (!state.registered_client.empty() && (state.peermem_loaded || !state.obsolete_loaded)) {
    result.observed = gpu_note + "peermem: nvidia_peermem registered as " +
                      state.registered_client + " (" + driver_text(state) + ")";
  } else if (state.dma_buf()) {
    result.observed = gpu_note + "DMA-BUF: " + driver_text(state) + ", " + kernel_text(state) +
                      (state.peermem_loaded ? "; nvidia_peermem loaded but not registered"
                                            : "; no nvidia_peermem needed");
  } else if (state.obsolete_loaded && !state.peermem_loaded) {
    result.status = state.registered_client.empty() ? Status::kFail : Status::kWarn;
    result.observed = gpu_note + "the obsolete nv_peer_mem is loaded instead of nvidia_peermem";
    result.hint =
        "replace nv_peer_mem with the driver's nvidia_peermem (modprobe -r nv_peer_mem; "
        "modprobe nvidia_peermem) and list nvidia_peermem in /etc/modules-load.d/";
  } else if (state.peermem_loaded) {
    result.status = Status::kFail;
    result.observed = gpu_note + "nvidia_peermem loaded but not registered as a peer-memory client";
    result.hint =
        "nvidia_peermem did not register with the RDMA core (no "
        "/sys/kernel/mm/memory_peers/nv_mem): it was built against another ib_core; "
        "reinstall the NVIDIA driver after the RDMA stack and reload the module";
  } else {
    result.status = Status::kFail;
    result.observed = gpu_note + "no GPUDirect RDMA path: no nvidia_peermem (" +
                      (state.peer_memory_core ? "the RDMA core takes peer memory"
                                              : "the RDMA core has no peer-memory support") +
                      "), no DMA-BUF (" + driver_text(state) + ", " + kernel_text(state) + ")";
    result.hint = no_path_hint(state);
  }
  results.push_back(std::move(result));
}

}  // namespace ibkit
