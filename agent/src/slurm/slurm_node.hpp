#pragma once

#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace ibkit {

// A Slurm node as `scontrol -o show node NAME` shows it: the parts a health check acts on.
struct SlurmNode {
  std::string name;
  std::string state;   // "IDLE", "MIXED+DRAIN", "DOWN*+DRAIN", ...
  std::string reason;  // without the " [user@time]" Slurm appends; "" when none
};

// Parses one line of `scontrol -o show node` (key=value pairs separated by spaces). Reason runs
// to the " [user@time]" suffix Slurm adds, or to the end of the line when there is none, so a
// reason with spaces or '=' survives. Fails when the line has no NodeName= or no State=.
Expected<SlurmNode> parse_scontrol_node(std::string_view line);

// What the state says about the node, flags and base state together.
struct NodeCondition {
  bool drain = false;      // the DRAIN flag: draining (jobs still running) or drained
  bool down = false;       // base state DOWN, or the FAIL flag: out by Slurm or an admin
  bool responding = true;  // no '*' (not responding) after the base state
  // A reboot is asked for or under way (REBOOT_REQUESTED, REBOOT_ISSUED, older Slurm's REBOOT,
  // or the '@' mark): the node is an administrator's until it is back.
  bool reboot_pending = false;
};

// Reads the condition from a State= value such as "IDLE+DRAIN" or "DOWN*"; an unknown word
// is neither drain nor down.
NodeCondition node_condition(std::string_view state);

}  // namespace ibkit
