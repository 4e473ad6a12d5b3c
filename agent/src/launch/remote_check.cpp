#include "launch/remote_check.hpp"

#include <utility>
#include <vector>

#include "launch/launch_targets.hpp"
#include "model/check_report.hpp"
#include "schema/report_input.hpp"
#include "util/exit_codes.hpp"
#include "util/process/child_process.hpp"
#include "util/process/descriptor_room.hpp"
#include "util/process/stop_signals.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

// What the launcher's run of `ibkit check` on `target` says: the node's report as it wrote it,
// or why there is none.
std::variant<CheckReport, NodeProblem> report_in(const LaunchSettings& settings,
                                                 const std::string& target,
                                                 const ChildOutput& ran) {
  const std::string node = target_address(target);
  // 3 is a node without an RDMA device: its report says so.
  const bool judged = ran.exit_status == kExitPass || ran.exit_status == kExitFail ||
                      ran.exit_status == kExitEnvironment;
  if (!judged || ran.out.empty()) {
    return classify_launch_failure(settings.remote.method, target, "ibkit check", ran.exit_status,
                                   ran.err, settings.remote_ibkit);
  }
  auto input = parse_report_input(ran.out, node + ": ibkit check's output");
  if (!input || !std::holds_alternative<CheckReport>(input->report)) {
    return NodeProblem{NodeProblemKind::kOtherAgent,
                       node + ": ibkit check wrote no report this ibkit reads (" +
                           (input ? std::string("another kind of report") : input.error().message) +
                           "): install this ibkit's version on every node"};
  }
  auto report = std::get<CheckReport>(std::move(input->report));
  if (release_of(report.agent_version) != release_of(build_version())) {
    return NodeProblem{
        NodeProblemKind::kOtherAgent,
        node + ": runs ibkit " +
            (report.agent_version.empty() ? "older than 0.1.0" : report.agent_version) +
            ", this is ibkit " + build_version() + ": install the same release on every node"};
  }
  return report;
}

}  // namespace

Expected<RemoteCheck> check_node(const LaunchSettings& settings, const std::string& target) {
  std::vector<std::string> command{settings.remote_ibkit, "check", "--format", "json"};
  if (!settings.node_config.empty()) {
    command.push_back("--config");
    command.push_back(settings.node_config);
  }
  const std::string through = "ibkit check through " + launch_method_name(settings.remote.method);
  auto problem = [&](NodeProblemKind kind, const std::string& what) {
    return RemoteCheck{NodeProblem{kind, target_address(target) + ": " + through + what}, ""};
  };
  // The fixed bound, or what the sweep's --deadline leaves when that is less.
  const auto [until, by_sweep] = launch_wait(settings, settings.check_timeout_s);
  auto stopped = [&] {
    return problem(NodeProblemKind::kStopped,
                   " not run: the sweep was stopped by " + stop_signal_name(stopped_by(settings)));
  };
  if (stopped_by(settings) != 0) return stopped();
  if (until.expired()) {
    return problem(NodeProblemKind::kFailed, " not started: the sweep's --deadline had passed");
  }
  const double allowed_s = until.remaining_ms() / 1000.0;
  auto ran = run_child(remote_argv(settings.remote, target, command), until,
                       [&] { return stopped_by(settings) != 0; });
  if (!ran && out_of_descriptors(ran.error().errnum)) {
    return Error{target + ": could not start " + through + ": " + ran.error().message};
  }
  if (!ran && stopped_by(settings) != 0) return stopped();
  if (!ran && until.expired()) {
    return problem(NodeProblemKind::kFailed,
                   " did not finish within " + format_number(allowed_s, 1) + " s" +
                       (by_sweep ? ", what the sweep's --deadline left it"
                                 : ", the most one node's check may take") +
                       "; killed it");
  }
  if (!ran) {
    const bool missing = ran.error().message.find("not found") != std::string::npos;
    return problem(missing ? NodeProblemKind::kUnreachable : NodeProblemKind::kFailed,
                   ": " + ran.error().message + (missing ? " on this machine" : ""));
  }
  RemoteCheck checked{report_in(settings, target, *ran), ""};
  if (auto* report = std::get_if<CheckReport>(&checked.outcome)) {
    const std::string name = target_address(target);
    if (report->host != name) checked.own_name = std::exchange(report->host, name);
  }
  return checked;
}

}  // namespace ibkit
