#include "launch/remote_command.hpp"

#include <cmath>

namespace ibkit {

Expected<LaunchMethod> parse_launch_method(std::string_view word) {
  if (word == "ssh") return LaunchMethod::kSsh;
  if (word == "slurm") return LaunchMethod::kSlurm;
  return Error{"--launch " + std::string(word) +
               ": expected ssh (nodes from --hosts, over your ssh) or slurm (the nodes of the "
               "allocation this runs in, through srun)"};
}

std::string launch_method_name(LaunchMethod method) {
  return method == LaunchMethod::kSsh ? "ssh" : "slurm";
}

std::string shell_quoted(std::string_view word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789@%+=:,./_-") == std::string_view::npos;
  if (safe) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::vector<std::string> remote_argv(const RemoteCommand& remote, const std::string& node,
                                     const std::vector<std::string>& command) {
  if (remote.method == LaunchMethod::kSlurm) {
    std::vector<std::string> argv{"srun",    "--overlap",        "--nodes=1",          "--ntasks=1",
                                  "--quiet", "--job-name=ibkit", "--nodelist=" + node, "--"};
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
  }
  const long timeout = std::max(1L, std::lround(std::ceil(remote.connect_timeout_s)));
  std::string line;
  for (const auto& word : command) line += (line.empty() ? "" : " ") + shell_quoted(word);
  return {"ssh",
          "-o",
          "BatchMode=yes",
          "-o",
          "ConnectTimeout=" + std::to_string(timeout),
          "-o",
          "ServerAliveInterval=10",
          "-o",
          "ServerAliveCountMax=3",
          "-T",
          "--",
          node,
          line};
}

}  // namespace ibkit
