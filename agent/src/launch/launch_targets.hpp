#pragma once

#include <string>
#include <vector>

#include "launch/remote_command.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The nodes a launched sweep starts its agents on. ssh: `hosts` (a comma list or a Slurm host
// list such as cn[01-16], or a file of one ssh destination per line, `#` comments); Slurm:
// `hosts` when given (nodes of the allocation), else the allocation's own, `slurm_nodelist`
// (SLURM_JOB_NODELIST), expanded as Slurm expands it. Fails with one line naming the flag or
// file: no allocation, fewer than two nodes, a name given twice, a destination ssh would take
// for an option. A node is named twice when two destinations reach it (cn01, admin@cn01).
Expected<std::vector<std::string>> launch_targets(LaunchMethod method, const std::string& hosts,
                                                  const char* slurm_nodelist);

// The node a destination reaches, by the name the sweep reaches its server on and the report
// names it: "cn01" of "admin@cn01".
std::string target_address(const std::string& target);

}  // namespace ibkit
