#include "fabric/umad_ports.hpp"

#include <system_error>

namespace ibkit {
namespace {

// Whether `directory` holds an entry whose name starts with `prefix`.
bool holds(const std::filesystem::path& directory, const std::string& prefix) {
  std::error_code error;
  for (std::filesystem::directory_iterator entry(directory, error), end; !error && entry != end;
       entry.increment(error)) {
    if (entry->path().filename().string().rfind(prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> missing_umad_port(const std::filesystem::path& root) {
  const auto devices = root / "sys/class/infiniband";
  const auto umad = root / "sys/class/infiniband_mad";
  if (!holds(devices, ""))
    return "no RDMA device under " + devices.string() +
           "; ibkit fabric needs an InfiniBand HCA with its driver loaded";
  if (!holds(umad, "umad"))
    return "no InfiniBand management port (no umad device under " + umad.string() +
           "): ibkit fabric needs an InfiniBand HCA and ib_umad loaded (modprobe ib_umad); "
           "RoCE and Soft-RoCE devices have none";
  return std::nullopt;
}

}  // namespace ibkit
