#include "sysfs/host.hpp"

#include <algorithm>

#include "util/text.hpp"

namespace ibkit {

bool module_present(const SysfsRoot& root, const std::string& module) {
  std::string name = module;
  std::replace(name.begin(), name.end(), '-', '_');
  return !name.empty() && name.find('/') == std::string::npos &&
         root.is_directory("sys/module/" + name);
}

std::optional<MemlockLimit> read_memlock(const SysfsRoot& root) {
  auto limits = root.read("proc/self/limits");
  if (!limits) return std::nullopt;
  for (const auto& line : split(*limits, '\n')) {
    if (!starts_with_ignoring_case(line, "Max locked memory")) continue;
    auto fields = split_whitespace(std::string_view(line).substr(17));
    if (fields.size() < 2) return std::nullopt;
    auto value = [](const std::string& field) -> std::optional<std::optional<std::uint64_t>> {
      if (field == "unlimited") return std::optional<std::uint64_t>{};
      if (auto bytes = parse_unsigned(field)) return std::optional<std::uint64_t>{*bytes};
      return std::nullopt;
    };
    auto soft = value(fields[0]);
    auto hard = value(fields[1]);
    if (!soft || !hard) return std::nullopt;
    return MemlockLimit{*soft, *hard};
  }
  return std::nullopt;
}

std::vector<CpuGovernor> read_cpu_governors(const SysfsRoot& root) {
  std::vector<std::pair<std::uint64_t, CpuGovernor>> found;
  for (const auto& name : root.list("sys/devices/system/cpu")) {
    if (name.rfind("cpu", 0) != 0) continue;
    auto index = parse_unsigned(std::string_view(name).substr(3));
    if (!index) continue;
    auto governor = root.read("sys/devices/system/cpu/" + name + "/cpufreq/scaling_governor");
    if (governor) found.push_back({*index, CpuGovernor{name, *governor}});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<CpuGovernor> governors;
  for (auto& entry : found) governors.push_back(std::move(entry.second));
  return governors;
}

std::vector<std::string> nvidia_gpus(const SysfsRoot& root) {
  std::vector<std::string> gpus;
  for (const auto& address : root.list("sys/bus/pci/devices")) {
    const std::string dir = "sys/bus/pci/devices/" + address;
    auto vendor = root.read(dir + "/vendor");
    auto pci_class = root.read(dir + "/class");
    if (vendor && pci_class && equals_ignoring_case(*vendor, "0x10de") &&
        starts_with_ignoring_case(*pci_class, "0x03")) {
      gpus.push_back(address);
    }
  }
  return gpus;
}

bool peer_memory_client_registered(const SysfsRoot& root, const std::string& client) {
  return root.is_directory("sys/kernel/mm/memory_peers/" + client);
}

std::vector<std::string> amd_gpus(const SysfsRoot& root) {
  std::vector<std::string> gpus;
  for (const auto& address : root.list("sys/bus/pci/devices")) {
    const std::string dir = "sys/bus/pci/devices/" + address;
    auto vendor = root.read(dir + "/vendor");
    auto pci_class = root.read(dir + "/class");
    if (vendor && pci_class && equals_ignoring_case(*vendor, "0x1002") &&
        (starts_with_ignoring_case(*pci_class, "0x03") ||
         starts_with_ignoring_case(*pci_class, "0x12"))) {
      gpus.push_back(address);
    }
  }
  return gpus;
}

bool peer_memory_supported(const SysfsRoot& root) {
  return root.is_directory("sys/kernel/mm/memory_peers");
}

std::optional<NvidiaDriver> read_nvidia_driver(const SysfsRoot& root) {
  auto text = root.read("proc/driver/nvidia/version");
  if (!text) return std::nullopt;
  NvidiaDriver driver;
  const auto lines = split(*text, '\n');
  const std::string first_line = lines.empty() ? std::string() : lines.front();
  driver.open = first_line.find("Open Kernel Module") != std::string::npos;
  for (const auto& field : split_whitespace(first_line)) {
    const auto parts = split(field, '.');
    if (parts.size() >= 2 && std::all_of(parts.begin(), parts.end(), [](const std::string& part) {
          return parse_unsigned(part).has_value();
        })) {
      driver.version = field;
      break;
    }
  }
  return driver;
}

std::optional<KernelRelease> read_kernel_release(const SysfsRoot& root) {
  auto text = root.read("proc/sys/kernel/osrelease");
  if (!text) return std::nullopt;
  const auto parts = split(*text, '.');
  if (parts.size() < 2) return std::nullopt;
  auto major = parse_unsigned(parts[0]);
  std::string minor_digits;
  for (char c : parts[1]) {
    if (c < '0' || c > '9') break;
    minor_digits += c;
  }
  auto minor = parse_unsigned(minor_digits);
  if (!major || !minor) return std::nullopt;
  return KernelRelease{static_cast<unsigned>(*major), static_cast<unsigned>(*minor), *text};
}

std::string read_hostname(const SysfsRoot& root) {
  auto name = root.read("proc/sys/kernel/hostname");
  return name && !name->empty() ? *name : "unknown";
}

}  // namespace ibkit
