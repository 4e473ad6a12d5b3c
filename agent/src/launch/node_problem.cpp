#include "launch/node_problem.hpp"

#include <vector>

#include "launch/launch_targets.hpp"
#include "util/text.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {
namespace {

// The last non-empty line of `text`, without the launcher's own prefixes.
std::string last_line(const std::string& text) {
  std::string last;
  for (const auto& line : split(text, '\n')) {
    std::string trimmed(trim(line));
    if (!trimmed.empty()) last = trimmed;
  }
  return quoted_excerpt(last, 300);
}

bool mentions(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}

}  // namespace

NodeProblem classify_launch_failure(LaunchMethod method, const std::string& target,
                                    const std::string& what, int exit_status,
                                    const std::string& errors, const std::string& remote_ibkit) {
  const std::string node = target_address(target);
  const std::string said = last_line(errors);
  const std::string how = launch_method_name(method);
  if (method == LaunchMethod::kSsh && exit_status == 255) {
    return {NodeProblemKind::kUnreachable,
            node + ": not reachable over ssh (" + (said.empty() ? "ssh exited 255" : said) +
                "): ssh -o BatchMode=yes " + target + " must log in without a prompt"};
  }
  const bool exec_failed = exit_status == 127 || mentions(errors, "execve") ||
                           mentions(errors, "command not found") ||
                           (mentions(errors, remote_ibkit) && mentions(errors, "No such file"));
  if (exec_failed) {
    return {NodeProblemKind::kNoAgent,
            node + ": no " + remote_ibkit + " to run there (" + said +
                "): install the ibkit package on every node, or give --remote-ibkit PATH"};
  }
  if (exit_status == 2 && (mentions(errors, "--until-stdin-closes") ||
                           mentions(errors, "--key-file") || mentions(errors, "not expected"))) {
    return {NodeProblemKind::kOtherAgent, node + ": its ibkit is too old for --launch (" + said +
                                              "): install this ibkit's version on every node"};
  }
  if (method == LaunchMethod::kSlurm && mentions(errors, "srun: error")) {
    return {NodeProblemKind::kUnreachable,
            node + ": srun could not run a task there (" + said +
                "): run inside an allocation that holds it (salloc, sbatch)"};
  }
  return {NodeProblemKind::kFailed, node + ": " + what + " exited " + std::to_string(exit_status) +
                                        " through " + how + (said.empty() ? "" : ": " + said)};
}

CheckReport problem_report(const std::string& node, const NodeProblem& problem) {
  CheckReport report;
  report.host = node;
  report.generated_at = utc_timestamp();
  report.config_source = "ibkit sweep --launch";
  report.agent_version = "";
  CheckResult result;
  result.subject = "node";
  result.status = Status::kFail;
  switch (problem.kind) {
    case NodeProblemKind::kUnreachable:
      result.id = "launch.reachable";
      result.observed = "not reachable";
      result.expected = "reachable by the launcher";
      break;
    case NodeProblemKind::kNoAgent:
      result.id = "launch.agent";
      result.observed = "no ibkit";
      result.expected = "ibkit installed";
      break;
    case NodeProblemKind::kOtherAgent:
      result.id = "launch.version";
      result.observed = "another ibkit version";
      result.expected = "ibkit " + build_version();
      break;
    case NodeProblemKind::kFailed:
      result.id = "launch.agent";
      result.observed = "ibkit failed";
      result.expected = "ibkit check and serve run";
      break;
    case NodeProblemKind::kStopped:
      result.id = "launch.stopped";
      result.status = Status::kSkip;
      result.observed = "not checked or started";
      result.expected = "ibkit check and serve run";
      break;
  }
  result.hint = problem.message;
  report.results.push_back(std::move(result));
  return report;
}

std::string release_of(const std::string& version) { return version.substr(0, version.find('+')); }

}  // namespace ibkit
