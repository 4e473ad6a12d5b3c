#pragma once

#include <string>

#include "launch/remote_command.hpp"
#include "model/check_report.hpp"

namespace ibkit {

// Why a node takes no part in a launched sweep.
enum class NodeProblemKind {
  kUnreachable,  // ssh or srun could not run anything there
  kNoAgent,      // it ran, but found no ibkit on the node
  kOtherAgent,   // the node's ibkit is another version, or too old for the launcher
  kFailed,       // ibkit ran there and failed (its own words say why)
  kStopped,      // the sweep was stopped (SIGTERM, SIGINT) before it was checked or started
};

struct NodeProblem {
  NodeProblemKind kind = NodeProblemKind::kFailed;
  std::string message;  // one line, starting with the node
};

// What `what` ("ibkit check", "ibkit serve") ending with `exit_status` and `errors` on its
// stderr says about `target` (NODE or USER@NODE; the message names NODE): ssh's 255 (or srun's own
// error) is an unreachable node, 127 or an exec failure a missing agent, a usage error about the
// launcher's options an agent too old for them; anything else its last line of stderr.
NodeProblem classify_launch_failure(LaunchMethod method, const std::string& target,
                                    const std::string& what, int exit_status,
                                    const std::string& errors, const std::string& remote_ibkit);

// The check report a node that could not be checked or started stands in the merged report
// as: one failed result naming the problem and the fix; one skipped result for a node the
// sweep was stopped before.
CheckReport problem_report(const std::string& node, const NodeProblem& problem);

// The part of a version that must match across nodes: "0.1.0" of "0.1.0+a5e85cb-dirty".
std::string release_of(const std::string& version);

}  // namespace ibkit
