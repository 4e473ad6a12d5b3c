#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "slurm/health_action.hpp"
#include "slurm/slurm_node.hpp"
#include "util/expected.hpp"

namespace ibkit {

// How ibkit reaches Slurm: the scontrol program (a path, or a name looked up on PATH) and how
// long each call may take before it is killed.
struct Scontrol {
  std::string program = "scontrol";
  std::chrono::milliseconds timeout{10000};
};

// `scontrol -o show node NAME`, parsed. Fails with a one-line Error naming the program when
// it is missing, hangs past the timeout, exits non-zero (its first line of stderr quoted, so
// an unknown node says so) or prints no node line.
Expected<SlurmNode> show_node(const Scontrol& scontrol, const std::string& name);

// The node in `reply`, the output of `command` (`scontrol -o show node NAME`): fails unless
// it is one record, parsed, of the node `name` itself. Errors are one line, text from the
// reply bounded and its control characters escaped.
Expected<SlurmNode> node_in_reply(std::string_view reply, const std::string& name,
                                  const std::string& command);

// Carries out `action` on node `name` with one `scontrol update`, argv passed directly:
// NodeName=NAME State=DRAIN Reason=<reason> (drain, update reason) or State=RESUME. kNothing
// runs nothing. Fails like show_node.
Expected<Done> apply_action(const Scontrol& scontrol, const std::string& name,
                            const HealthAction& action);

}  // namespace ibkit
