#include "slurm/scontrol.hpp"

#include <vector>

#include "util/process/child_process.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

std::string seconds_text(std::chrono::milliseconds timeout) {
  const auto ms = timeout.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Runs scontrol with `args`; an Error unless it exited 0.
Expected<std::string> run_scontrol(const Scontrol& scontrol, const std::vector<std::string>& args) {
  std::vector<std::string> argv{scontrol.program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string command = scontrol.program;
  for (const auto& arg : args) command += " " + arg;

  auto ran = run_child(argv, Deadline::after(scontrol.timeout));
  if (!ran) {
    if (ran.error().message.ends_with(": not found")) {
      return Error{scontrol.program + " not found; install Slurm's client on this node, " +
                   "pass its path with --scontrol PATH, or use --scheduler none"};
    }
    if (ran.error().message.ends_with("did not finish in time; killed it")) {
      return Error{"`" + command + "` did not answer within " + seconds_text(scontrol.timeout) +
                   " and was killed; is slurmctld reachable? (--scontrol PATH picks another "
                   "scontrol)"};
    }
    return Error{"cannot run " + scontrol.program + ": " + ran.error().message +
                 " (--scontrol PATH)"};
  }
  if (ran->exit_status != 0) {
    const std::string said = quoted_excerpt(ran->err.empty() ? ran->out : ran->err);
    return Error{"`" + command + "` exited " + std::to_string(ran->exit_status) +
                 (said.empty() ? "" : ": " + said)};
  }
  return ran->out;
}

}  // namespace

Expected<SlurmNode> show_node(const Scontrol& scontrol, const std::string& name) {
  auto out = run_scontrol(scontrol, {"-o", "show", "node", name});
  if (!out) return out.error();
  return node_in_reply(*out, name, "`" + scontrol.program + " -o show node " + name + "`");
}

Expected<SlurmNode> node_in_reply(std::string_view reply, const std::string& name,
                                  const std::string& command) {
  // One line a node: more than one is a host list, and health acts on one node only.
  std::size_t records = 0;
  for (const auto& line : split(reply, '\n')) records += trim(line).empty() ? 0 : 1;
  if (records > 1) {
    return Error{command + " described " + std::to_string(records) +
                 " nodes; ibkit health judges this node alone: give --node its own name"};
  }
  auto node = parse_scontrol_node(reply);
  if (!node) {
    return Error{command + ": " + node.error().message + " (got: " + quoted_excerpt(reply) + ")"};
  }
  // Acting on another node than the one asked about would drain a healthy node for this one.
  if (node->name != name) {
    return Error{command + " described node " + quoted_excerpt(node->name) + ", not " + name +
                 "; nothing changed: give --node the name Slurm knows this node by"};
  }
  return node;
}

Expected<Done> apply_action(const Scontrol& scontrol, const std::string& name,
                            const HealthAction& action) {
  std::vector<std::string> args{"update", "NodeName=" + name};
  switch (action.kind) {
    case HealthActionKind::kNothing:
      return Done{};
    case HealthActionKind::kDrain:
    case HealthActionKind::kUpdateReason:
      args.push_back("State=DRAIN");
      args.push_back("Reason=" + action.reason);
      break;
    case HealthActionKind::kResume:
      args.push_back("State=RESUME");
      break;
  }
  auto out = run_scontrol(scontrol, args);
  if (!out) return out.error();
  return Done{};
}

}  // namespace ibkit
