#include "cli/health_command.hpp"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <ostream>

#include "cli/node_check.hpp"
#include "slurm/health_action.hpp"
#include "slurm/health_reason.hpp"
#include "slurm/scontrol.hpp"
#include "util/exit_codes.hpp"
#include "util/files/run_lock.hpp"
#include "util/hostname.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// Slurm names nodes by their short host name unless slurmd was told otherwise (-N), which it
// passes on to its health program as SLURMD_NODENAME.
std::string default_node_name() {
  if (const char* name = std::getenv("SLURMD_NODENAME"); name != nullptr && *name != '\0')
    return name;
  const std::string host = local_hostname();
  return host.substr(0, host.find('.'));
}

// The one-line summary of what is wrong, "" when the node passed.
std::string failure_summary(const NodeCheck& check) {
  // No RDMA device (the environment code) comes with its own failed rdma.devices result.
  if (check.status == kExitPass) return "";
  return summarize_failures(check.report.results);
}

int act_in_slurm(const HealthOptions& options, const std::string& reason, Console& console) {
  const Scontrol scontrol{
      options.scontrol,
      std::chrono::milliseconds(static_cast<long long>(options.timeout_seconds * 1000.0))};
  const std::string name = options.node.empty() ? default_node_name() : options.node;
  auto node = show_node(scontrol, name);
  if (!node) {
    console.err << "ibkit health: " << node.error().message << "\n";
    return kExitUsage;
  }
  const HealthAction action = decide_health_action(*node, reason.empty(), reason);
  if (auto applied = apply_action(scontrol, node->name, action); !applied) {
    console.err << "ibkit health: " << applied.error().message << "\n";
    return kExitUsage;
  }
  // The note quotes the reason Slurm holds, which anyone who drained the node wrote.
  if (!action.note.empty()) console.out << "ibkit health: " << terminal_safe(action.note) << "\n";
  return kExitPass;
}

// The verdict line for a failure, in NHC's form: the words after "Health check failed: " are
// the drain reason's own.
void print_failure(const std::string& reason, Console& console) {
  console.out << "ERROR: ibkit: Health check failed: "
              << reason.substr(kIbkitReasonMarker.size() + 1) << "\n";
}

// A run that found the lock held: 0 while the holder may still be working, else the node fails
// on the stuck run (a health program that never ends is a node that cannot be judged).
int judge_held_lock(const HealthOptions& options, const LockHolder& holder, Console& console) {
  if (holder.held_seconds <= options.lock_limit_seconds) {
    console.err << "ibkit health: another run holds " << options.lock
                << (holder.pid.empty() ? "" : " (pid " + holder.pid + ")")
                << ": this one judges and changes nothing\n";
    return kExitPass;
  }
  const std::string who = holder.pid.empty() ? "another run" : "pid " + holder.pid;
  const std::string reason = drain_reason(
      "health run " + who + " stuck: it has held " + options.lock + " for " +
      std::to_string(static_cast<long long>(holder.held_seconds)) + " s (--lock-limit " +
      std::to_string(static_cast<long long>(options.lock_limit_seconds)) + ")");
  print_failure(reason, console);
  if (options.scheduler == "slurm") {
    if (int status = act_in_slurm(options, reason, console); status != kExitPass) return status;
  }
  return kExitFail;
}

}  // namespace

int run_health(const HealthOptions& options, Console& console) {
  std::optional<RunLock> lock;
  if (!options.lock.empty()) {
    LockHolder holder;
    auto taken = try_run_lock(options.lock, holder);
    if (!taken) {
      // Judging the node matters more than the lock: run, and say why it is not held.
      console.err << "ibkit health: --lock " << taken.error().message << ": running without it\n";
    } else if (!*taken) {
      return judge_held_lock(options, holder, console);
    } else {
      lock.emplace(std::move(**taken));
    }
  }
  CheckOptions check_options = options.check;
  check_options.spare_never_linked = true;  // an uncabled port is no reason to drain a node
  auto check = run_node_check(check_options);
  if (!check) {
    console.err << "ibkit health: " << check.error().message << "\n";
    return kExitUsage;
  }
  const std::string summary = failure_summary(*check);
  const std::string reason = summary.empty() ? "" : drain_reason(summary);
  if (!reason.empty()) print_failure(reason, console);
  // Not a reason to drain, but worth a line in the health program's log.
  for (const auto& result : check->report.results) {
    if (result.status != Status::kWarn) continue;
    console.err << "ibkit health: warning: " << result.id << " " << result.subject << " "
                << result.observed << (result.hint.empty() ? "" : ": " + result.hint) << "\n";
  }
  if (!check->environment_note.empty())
    console.err << "ibkit health: " << check->environment_note << "\n";
  // The verdict stands without the state file; only the next run's flap check loses its base.
  if (!check->state_problem.empty())
    console.err << "ibkit health: --state " << check->state_problem << "\n";
  if (options.scheduler == "slurm") {
    if (int status = act_in_slurm(options, reason, console); status != kExitPass) return status;
  }
  return check->status;
}

Command add_health_command(CLI::App& app) {
  auto options = std::make_shared<HealthOptions>();
  auto* parser = app.add_subcommand(
      "health",
      "judge this node as ibkit check does and drain or resume it in the scheduler "
      "(Slurm's HealthCheckProgram)");
  add_node_check_options(*parser, options->check);
  parser
      ->add_option("--scheduler", options->scheduler,
                   "slurm: drain a failing node, resume one ibkit drained; none: only print "
                   "the verdict line and exit 0 or 1 (for NHC)")
      ->check(CLI::IsMember({"slurm", "none"}));
  parser
      ->add_option("--node", options->node,
                   "the node's Slurm name (default $SLURMD_NODENAME, else the short host name)")
      ->type_name("NAME");
  parser
      ->add_option("--scontrol", options->scontrol,
                   "Slurm's scontrol to call (default: scontrol on PATH)")
      ->type_name("PATH");
  parser
      ->add_option("--scontrol-timeout", options->timeout_seconds,
                   "seconds each scontrol call may take before it is killed (default 10)")
      ->check(CLI::Range(0.1, 300.0));
  parser
      ->add_option("--lock", options->lock,
                   "file locked while this runs, in a directory only its user can write "
                   "(made 0700 if missing): a run that finds it held exits 0 at once "
                   "(default /run/ibkit/health.lock; \"\" for none)")
      ->type_name("FILE");
  parser
      ->add_option("--lock-limit", options->lock_limit_seconds,
                   "seconds another run may hold --lock before it counts as stuck and the node "
                   "fails (default 600)")
      ->type_name("SECONDS")
      ->check(CLI::Range(1.0, 86400.0));
  return {parser, [options](Console& console) { return run_health(*options, console); }};
}

}  // namespace ibkit
