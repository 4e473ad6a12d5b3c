#include "launch/launch_targets.hpp"

#include <filesystem>
#include <set>

#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"
#include "slurm/hostlist.hpp"
#include "util/files/bounded_file.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr FileLimit kHostsFile{"--hosts", std::size_t{4} << 20,
                               "give one ssh destination per line"};

Expected<std::vector<std::string>> targets_in_file(const std::string& path) {
  auto text = read_bounded_file(path, kHostsFile);
  if (!text) return text.error();
  std::vector<std::string> targets;
  int number = 0;
  for (const auto& raw : split(text->bytes, '\n')) {
    ++number;
    const std::string line(trim(raw.substr(0, raw.find('#'))));
    if (line.empty()) continue;
    if (split_whitespace(line).size() != 1) {
      return Error{path + ":" + std::to_string(number) +
                   ": one ssh destination per line (NODE or USER@NODE), not \"" +
                   escaped_excerpt(line) + "\""};
    }
    targets.push_back(line);
  }
  return targets;
}

Expected<std::vector<std::string>> checked(std::vector<std::string> targets,
                                           const std::string& source) {
  // A node is its name, whoever logs in: admin@cn01 and cn01 are one node named twice.
  std::set<std::string> seen;
  for (const auto& target : targets) {
    const std::string node = target_address(target);
    if (!is_host_text(node) || target.front() == '-') {
      return Error{source + ": \"" + escaped_excerpt(target) +
                   "\" is not a node name (NODE or USER@NODE: letters, digits, \".-_\")"};
    }
    if (!seen.insert(node).second) return Error{source + ": " + node + " is named twice"};
  }
  if (targets.size() < 2) {
    return Error{source + " names " + std::to_string(targets.size()) +
                 " node; a sweep needs at least two"};
  }
  return targets;
}

}  // namespace

std::string target_address(const std::string& target) {
  const auto at = target.rfind('@');
  return at == std::string::npos ? target : target.substr(at + 1);
}

Expected<std::vector<std::string>> launch_targets(LaunchMethod method, const std::string& hosts,
                                                  const char* slurm_nodelist) {
  if (hosts.empty() && method == LaunchMethod::kSsh) {
    return Error{
        "--launch ssh needs --hosts: the nodes to reach over ssh (cn01,cn02 or "
        "cn[01-16] or a file of one per line)"};
  }
  if (hosts.empty()) {
    if (slurm_nodelist == nullptr || *slurm_nodelist == '\0') {
      return Error{
          "--launch slurm runs inside a Slurm allocation, and SLURM_JOB_NODELIST is not "
          "set: salloc -N 2 ibkit sweep --launch slurm, or the same line in an sbatch "
          "script"};
    }
    auto nodes = expand_hostlist(slurm_nodelist, kMaxSweepNodes);
    if (!nodes) return Error{"SLURM_JOB_NODELIST: " + escaped_excerpt(nodes.error().message)};
    return checked(std::move(*nodes), "SLURM_JOB_NODELIST (the allocation)");
  }
  std::error_code error;
  if (std::filesystem::exists(hosts, error)) {
    auto targets = targets_in_file(hosts);
    if (!targets) return targets.error();
    return checked(std::move(*targets), "--hosts " + escaped_excerpt(hosts));
  }
  auto nodes = expand_hostlist(hosts, kMaxSweepNodes);
  if (!nodes) return Error{"--hosts: " + escaped_excerpt(nodes.error().message)};
  return checked(std::move(*nodes), "--hosts " + escaped_excerpt(hosts));
}

}  // namespace ibkit
