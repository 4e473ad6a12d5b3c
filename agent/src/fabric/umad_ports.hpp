#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace ibkit {

// Why fabric discovery cannot work on this machine, when sysfs under `root` makes it plain:
// no RDMA device at all, or devices but no InfiniBand management (umad) port, which RoCE and
// Soft-RoCE never have and ib_umad provides. nullopt when a umad port is there. Asked after
// discovery failed, so a simulated subnet (ibsim's umad2sim) is never second-guessed.
std::optional<std::string> missing_umad_port(const std::filesystem::path& root = "/");

}  // namespace ibkit
