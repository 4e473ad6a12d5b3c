// The node lists of `ibkit sweep --launch` on any text. The input is up to three sections,
// split by lines that are exactly "----": a hosts file of ssh destinations (`--hosts FILE`),
// a Slurm allocation's node list (SLURM_JOB_NODELIST, --launch slurm without --hosts), and a
// `--hosts` list (for ssh, and for Slurm as some of the allocation's nodes). Whatever is
// accepted must be what launch_targets promises: at least two destinations, each a node name
// (NODE or USER@NODE) that ssh cannot take for an option, no node twice however it is reached;
// whatever is refused, one line naming the flag, the file or the allocation.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "launch/launch_targets.hpp"
#include "schedule/hosts.hpp"

namespace {

using ibkit::fuzz::broken_promise;

void check_targets(const char* source, const std::vector<std::string>& targets) {
  if (targets.size() < 2) broken_promise(source, "accepted fewer than two nodes");
  std::set<std::string> nodes;
  for (const auto& target : targets) {
    const std::string node = ibkit::target_address(target);
    if (!ibkit::is_host_text(node)) broken_promise(source, "accepted node " + node);
    if (target.empty() || target.front() == '-')
      broken_promise(source, "accepted a destination ssh takes for an option: " + target);
    if (target.size() < node.size() ||
        target.compare(target.size() - node.size(), node.size(), node) != 0) {
      broken_promise(source, "a node that does not end its destination: " + target);
    }
    if (!nodes.insert(node).second) broken_promise(source, "node accepted twice: " + node);
  }
}

// A refusal is one line a terminal shows as it is, starting with what it refuses (one of
// `starts`).
void check_refusal(const char* source, const std::string& message,
                   std::initializer_list<std::string> starts) {
  bool named = false;
  for (const auto& start : starts) named = named || message.rfind(start, 0) == 0;
  if (!named) broken_promise(source, "a refusal that does not name what it refuses: " + message);
  for (const char c : message) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      broken_promise(source, "a refusal with a control character: " + message);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ibkit::fuzz::MemoryFile hosts_file("launch-hosts");
  const auto parts = ibkit::fuzz::sections(ibkit::fuzz::as_text(data, size), "----");
  using ibkit::LaunchMethod;

  hosts_file.write(parts[0]);
  if (auto read = ibkit::launch_targets(LaunchMethod::kSsh, hosts_file.path(), nullptr)) {
    check_targets("hosts file", *read);
  } else {
    check_refusal("hosts file", read.error().message,
                  {hosts_file.path(), "--hosts " + hosts_file.path()});
  }

  if (parts.size() > 1) {
    const std::string nodelist(parts[1]);
    // Slurm's environment holds a C string: what an embedded NUL leaves of it.
    if (auto nodes = ibkit::launch_targets(LaunchMethod::kSlurm, "", nodelist.c_str())) {
      check_targets("SLURM_JOB_NODELIST", *nodes);
    } else {
      check_refusal("SLURM_JOB_NODELIST", nodes.error().message,
                    {"SLURM_JOB_NODELIST", "--launch slurm runs inside a Slurm allocation"});
    }
  }

  // A --hosts list that names a file is read as one: never one the input names.
  if (parts.size() > 2 && !parts[2].empty()) {
    const std::string list(parts[2]);
    std::error_code ignored;
    if (list.find('/') == std::string::npos && list.find('\0') == std::string::npos &&
        !std::filesystem::exists(list, ignored)) {
      for (auto method : {LaunchMethod::kSsh, LaunchMethod::kSlurm}) {
        if (auto listed = ibkit::launch_targets(method, list, "unused[1-2]")) {
          check_targets("--hosts list", *listed);
        } else {
          check_refusal("--hosts list", listed.error().message, {"--hosts"});
        }
      }
    }
  }
  return 0;
}
