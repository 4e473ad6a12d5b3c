#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sysfs/sysfs_root.hpp"

namespace ibkit {

// True when the module is loaded or built in (sys/module/<name> exists). Dashes and
// underscores are the same to the kernel: "nvidia-peermem" is nvidia_peermem.
bool module_present(const SysfsRoot& root, const std::string& module);

// RLIMIT_MEMLOCK as the reading process sees it, from proc/self/limits.
struct MemlockLimit {
  std::optional<std::uint64_t> soft_bytes;  // nullopt = unlimited
  std::optional<std::uint64_t> hard_bytes;  // nullopt = unlimited
};
// Returns nullopt when proc/self/limits is absent or has no "Max locked memory" row.
std::optional<MemlockLimit> read_memlock(const SysfsRoot& root);

// The scaling governor of each CPU that has cpufreq, as {"cpu0", "performance"}, CPU order.
// Empty when the platform exposes no cpufreq (VMs, some BIOS settings).
struct CpuGovernor {
  std::string cpu;
  std::string governor;
};
std::vector<CpuGovernor> read_cpu_governors(const SysfsRoot& root);

// PCI addresses of NVIDIA display/3D controllers (vendor 0x10de, class 0x03xxxx).
std::vector<std::string> nvidia_gpus(const SysfsRoot& root);

// True when a peer-memory client (GPUDirect RDMA) registered with the RDMA core under that
// name: nvidia_peermem registers as "nv_mem", and as "nv_mem_nc" too where it was built so.
bool peer_memory_client_registered(const SysfsRoot& root, const std::string& client);

// PCI addresses of AMD GPUs and accelerators (vendor 0x1002, display class 0x03xxxx or
// processing accelerator 0x12xxxx, as the Instinct MI series shows).
std::vector<std::string> amd_gpus(const SysfsRoot& root);

// True when the RDMA core takes peer-memory clients (nvidia_peermem's GPUDirect path): the
// ib_core of MLNX_OFED and DOCA-OFED creates sys/kernel/mm/memory_peers; a distribution
// kernel's does not, and nvidia_peermem cannot load there.
bool peer_memory_supported(const SysfsRoot& root);

// The loaded NVIDIA kernel driver, from proc/driver/nvidia/version: the open GPU kernel
// modules say "Open Kernel Module" there. nullopt when no NVIDIA driver is loaded.
struct NvidiaDriver {
  bool open = false;
  std::string version;  // "550.54.15", or empty when the line has none
};
std::optional<NvidiaDriver> read_nvidia_driver(const SysfsRoot& root);

// The running kernel's release from proc/sys/kernel/osrelease ("6.1.0-18-amd64" is 6.1).
// nullopt when the file is absent or does not start with MAJOR.MINOR.
struct KernelRelease {
  unsigned major = 0;
  unsigned minor = 0;
  std::string text;
  bool at_least(unsigned want_major, unsigned want_minor) const {
    return major > want_major || (major == want_major && minor >= want_minor);
  }
};
std::optional<KernelRelease> read_kernel_release(const SysfsRoot& root);

// The node's host name from proc/sys/kernel/hostname; "unknown" when it cannot be read.
std::string read_hostname(const SysfsRoot& root);

}  // namespace ibkit
