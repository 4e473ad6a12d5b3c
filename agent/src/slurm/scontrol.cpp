#include "slurm/scontrol.hpp"

#include <vector>

#include "util/child_process.hpp"
#include "util/deadline.hpp"

namespace ibkit {
namespace {

std::string first_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

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
    const std::string said = first_line(ran->err.empty() ? ran->out : ran->err);
    return Error{"`" + command + "` exited " + std::to_string(ran->exit_status) +
                 (said.empty() ? "" : ": " + said)};
  }
  return ran->out;
}

}  // namespace

Expected<SlurmNode> show_node(const Scontrol& scontrol, const std::string& name) {
  auto out = run_scontrol(scontrol, {"-o", "show", "node", name});
  if (!out) return out.error();
  auto node = parse_scontrol_node(*out);
  if (!node) {
    return Error{"`" + scontrol.program + " -o show node " + name + "`: " + node.error().message +
                 " (got: " + first_line(*out) + ")"};
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
