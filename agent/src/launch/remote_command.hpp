#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// How ibkit reaches the other nodes to start its agents there.
enum class LaunchMethod {
  kSsh,    // the user's own ssh: their config and agent, batch mode
  kSlurm,  // srun, one task on one node, inside the allocation this runs in
};

// "ssh" or "slurm" for --launch; fails naming the choices.
Expected<LaunchMethod> parse_launch_method(std::string_view word);
std::string launch_method_name(LaunchMethod method);

struct RemoteCommand {
  LaunchMethod method = LaunchMethod::kSsh;
  double connect_timeout_s = 10;  // ssh's ConnectTimeout: a node that does not answer
};

// The argv that runs `command` on `node`. ssh: batch mode (no password or host-key prompt), the
// connect timeout, keep-alives that end a connection to a node that died, and the command's
// words quoted for the remote shell. Slurm: srun with one task on that node, overlapping the
// allocation's other steps (the batch script's own holds the CPUs), stdin to the task.
std::vector<std::string> remote_argv(const RemoteCommand& remote, const std::string& node,
                                     const std::vector<std::string>& command);

// `word` as one word for a POSIX shell: as it is when it is safe, else in single quotes.
std::string shell_quoted(std::string_view word);

}  // namespace ibkit
