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
// name: nvidia_peermem registers as "nv_mem".
bool peer_memory_client_registered(const SysfsRoot& root, const std::string& client);

// The node's host name from proc/sys/kernel/hostname; "unknown" when it cannot be read.
std::string read_hostname(const SysfsRoot& root);

}  // namespace ibkit
