#include "cli/launched_sweep.hpp"

#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>
#include <variant>

#include "cli/phase_progress.hpp"
#include "cli/serve_command.hpp"
#include "cli/sweep_run.hpp"
#include "launch/launch_room.hpp"
#include "launch/launch_targets.hpp"
#include "launch/node_problem.hpp"
#include "launch/remote_check.hpp"
#include "launch/server_fleet.hpp"
#include "report/report_merge.hpp"
#include "report/sweep_files.hpp"
#include "util/exit_codes.hpp"
#include "util/process/bounded_threads.hpp"
#include "util/process/descriptor_room.hpp"
#include "util/process/stop_signals.hpp"
#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

using NodeCheckOutcome = std::variant<CheckReport, NodeProblem>;

// `deadline`: the end of --deadline, counted from the command's start.
LaunchSettings launch_settings(const SweepOptions& options, LaunchMethod method,
                               const std::optional<Deadline>& deadline) {
  LaunchSettings settings;
  settings.deadline = deadline;
  settings.remote.method = method;
  settings.remote.connect_timeout_s = options.connect_timeout_s;
  settings.remote_ibkit = options.remote_ibkit;
  settings.node_config = options.node_config;
  settings.port = options.port;
  // A server outlives the sweep's own deadline by no more than a margin, whatever happens to
  // the launcher: its stdin closing is the way it normally goes.
  if (options.deadline_s > 0) {
    settings.serve_deadline_s = options.deadline_s + settings.listen_timeout_s + 60;
  }
  // A --pair-deadline past a default session (600 s) would have every drive refused.
  if (options.pair_deadline_s + 30 > kDefaultSessionTimeoutS) {
    settings.session_timeout_s = options.pair_deadline_s + 30;
  }
  return settings;
}

// The sweep's options as they run against hosts that are already up.
SweepOptions plain_sweep(const SweepOptions& options) {
  SweepOptions plain = options;
  plain.launch.clear();
  plain.key_file.clear();
  return plain;
}

// Checks the sweep's options against the targets as --dry-run would, before anything starts.
SweepOutcome dry_run(const SweepOptions& options, const std::vector<std::string>& targets,
                     Console& console) {
  SweepOptions dry = plain_sweep(options);
  dry.dry_run = true;
  std::vector<SweepHost> hosts;
  for (const auto& target : targets) {
    hosts.push_back(SweepHost{target_address(target), target_address(target), options.port});
  }
  std::ostringstream quiet;
  Console muted{quiet, console.err, false};
  return sweep_hosts(dry, hosts, std::nullopt, muted);
}

// ibkit check on every target, `at_once` at a time, each report naming its node as given.
// The nodes that call themselves otherwise are noted on stderr, in one line. Fails when a
// launcher could not start for want of descriptors (check_node).
Expected<std::vector<NodeCheckOutcome>> check_nodes(const LaunchSettings& settings,
                                                    const std::vector<std::string>& targets,
                                                    std::size_t at_once, Console& console) {
  std::vector<std::optional<Expected<RemoteCheck>>> checks(targets.size());
  {
    PhaseProgress progress(console, "ibkit check", targets.size());
    run_on_bounded_threads(targets.size(), at_once, [&](std::size_t i) {
      checks[i] = check_node(settings, targets[i]);
      progress.done_one();
    });
  }
  std::vector<NodeCheckOutcome> outcomes;
  std::vector<std::string> renamed;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!*checks[i]) return checks[i]->error();
    RemoteCheck& checked = **checks[i];
    if (!checked.own_name.empty())
      renamed.push_back(target_address(targets[i]) + " calls itself " + checked.own_name);
    outcomes.push_back(std::move(checked.outcome));
  }
  if (!renamed.empty()) {
    console.err << "ibkit sweep: " << renamed.size() << " node(s) call themselves by other names "
                << "than given (" << join_capped(renamed, 8, ", ")
                << "); the report names each as given\n";
  }
  return outcomes;
}

// The nodes a launched sweep sweeps, and those it leaves out.
struct SweptNodes {
  std::vector<SweepHost> hosts;
  std::vector<std::string> left_out;
  std::size_t not_reached = 0;  // nodes a stop signal came before their check or server
};

// Every node checked whose server listens is swept; a node a stop signal came before is swept
// all the same (its pairs stand in the report as not run, naming the signal). Every other node
// is left out: its problem replaces its check in `checks` (`server_problems` holds one per
// checked node, in order) and is said on stderr.
SweptNodes nodes_to_sweep(const std::vector<std::string>& targets,
                          std::vector<NodeCheckOutcome>& checks,
                          const std::vector<std::optional<NodeProblem>>& server_problems,
                          std::uint16_t port, Console& console) {
  auto stopped = [](const std::optional<NodeProblem>& problem) {
    return problem && problem->kind == NodeProblemKind::kStopped;
  };
  SweptNodes nodes;
  for (std::size_t i = 0, k = 0; i < targets.size(); ++i) {
    const std::string node = target_address(targets[i]);
    std::optional<NodeProblem> problem;
    if (const auto* unchecked = std::get_if<NodeProblem>(&checks[i])) {
      problem = *unchecked;
    } else if (problem = server_problems[k++]; problem && !stopped(problem)) {
      checks[i] = *problem;
    }
    if (stopped(problem)) ++nodes.not_reached;
    if (problem && !stopped(problem)) {
      nodes.left_out.push_back(node);
      console.err << "ibkit sweep: " << problem->message << "\n";
      continue;
    }
    nodes.hosts.push_back(SweepHost{node, node, port});
  }
  return nodes;
}

// ibkit serve on every checked node, with a progress line while they start; none once the
// sweep was stopped.
Expected<std::unique_ptr<ServerFleet>> start_servers(const LaunchSettings& settings,
                                                     const std::vector<std::string>& nodes,
                                                     const SharedKey& key, Console& console) {
  if (stopped_by(settings) != 0 || nodes.empty()) return ServerFleet::start(settings, nodes, key);
  console.err << "ibkit sweep: starting ibkit serve on " << count_of(nodes.size(), "node", "nodes")
              << "\n"
              << std::flush;
  PhaseProgress progress(console, "ibkit serve", nodes.size());
  return ServerFleet::start(settings, nodes, key, [&progress] { progress.done_one(); });
}

// The line a sweep stopped for want of descriptors ends with.
int out_of_descriptors_exit(const Error& error, Console& console) {
  console.err << "ibkit sweep: " << error.message
              << ": this machine ran out of open files (ulimit -n); the sweep stops\n";
  return kExitEnvironment;
}

}  // namespace

int run_launched_sweep(const SweepOptions& options, Console& console) {
  std::optional<Deadline> deadline;
  if (options.deadline_s > 0) deadline = Deadline::after_seconds(options.deadline_s);
  auto fail_usage = [&](const std::string& message) {
    console.err << "ibkit sweep: " << message << "\n";
    return kExitUsage;
  };
  auto method = parse_launch_method(options.launch);
  if (!method) return fail_usage(method.error().message);
  if (!options.key_file.empty()) {
    return fail_usage(
        "--key-file: --launch makes a key for the run and hands it to the servers "
        "it starts; leave --key-file out");
  }
  auto targets = launch_targets(*method, options.hosts, std::getenv("SLURM_JOB_NODELIST"));
  if (!targets) return fail_usage(targets.error().message);
  auto baseline = read_baseline(options.baseline);
  if (!baseline) return fail_usage(baseline.error().message);
  if (auto checked = dry_run(options, *targets, console); checked.status != kExitPass)
    return checked.status;
  if (options.dry_run) {
    console.out << "ibkit sweep: the options are valid: " << targets->size()
                << " nodes to start through " << options.launch << "; nothing ran (--dry-run)\n";
    return kExitPass;
  }
  // Running out of descriptors is found out before any node is touched, never taken for the
  // nodes' failure.
  const DescriptorRoom room = raise_descriptor_limit();
  if (auto fits = check_launch_room(targets->size(), room); !fits) {
    console.err << "ibkit sweep: " << fits.error().message << "\n";
    return kExitEnvironment;
  }
  // A report that could not be written is found out before any node is touched.
  if (!options.output.empty()) {
    if (auto ready = prepare_report_dir(options.output); !ready)
      return fail_usage("--output " + ready.error().message);
  }

  // SIGTERM (Slurm's time limit) and Ctrl-C from here on end the sweep, not the process: the
  // checks running are killed, no server starts after it, no pair runs, and the report of what
  // was measured is written, the rest not run.
  const StopSignals stop_signals;
  LaunchSettings settings = launch_settings(options, *method, deadline);
  settings.stop_signal = [] { return StopSignals::received(); };
  const std::size_t count = targets->size();
  console.err << "ibkit sweep: ibkit check on " << count << " nodes through " << options.launch
              << "\n"
              << std::flush;
  auto checked_nodes = check_nodes(settings, *targets, checks_at_once(room), console);
  if (!checked_nodes) return out_of_descriptors_exit(checked_nodes.error(), console);
  std::vector<NodeCheckOutcome> checks = std::move(*checked_nodes);

  std::vector<std::string> checked;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::holds_alternative<CheckReport>(checks[i])) checked.push_back((*targets)[i]);
  }
  const SharedKey key{random_hex(32)};
  auto started = start_servers(settings, checked, key, console);
  if (!started) return out_of_descriptors_exit(started.error(), console);
  ServerFleet& fleet = **started;

  const SweptNodes nodes =
      nodes_to_sweep(*targets, checks, fleet.problems(), options.port, console);
  SweepOutcome swept;
  if (const int signal = StopSignals::received(); signal != 0) {
    console.err << "ibkit sweep: stopped by " << stop_signal_name(signal)
                << " before the first round"
                << (nodes.not_reached == 0 ? std::string()
                                           : " (" + count_of(nodes.not_reached, "node", "nodes") +
                                                 " not checked or started)")
                << "; no pair runs\n";
  } else if (nodes.hosts.size() >= 2) {
    console.err << "ibkit sweep: sweeping " << nodes.hosts.size() << " nodes"
                << (nodes.left_out.empty()
                        ? ""
                        : " (left out: " + join_capped(nodes.left_out, 8, ", ") + ")")
                << "\n"
                << std::flush;
  }
  const std::vector<SweepHost>& hosts = nodes.hosts;
  if (hosts.size() >= 2) {
    swept = sweep_hosts(plain_sweep(options), hosts, key, console);
  } else {
    console.err << "ibkit sweep: " << hosts.size()
                << " node(s) ready; a sweep needs two: no pair ran\n";
    swept.status = kExitFail;
  }
  for (const auto& line : fleet.stop()) console.err << "ibkit sweep: " << line << "\n";

  const int stopped_by = swept.report && swept.report->stopped_by != 0 ? swept.report->stopped_by
                                                                       : StopSignals::received();
  std::vector<ReportInput> inputs;
  if (swept.report) inputs.push_back(ReportInput{"the sweep", std::move(*swept.report)});
  for (std::size_t i = 0; i < count; ++i) {
    const std::string node = target_address((*targets)[i]);
    if (const auto* report = std::get_if<CheckReport>(&checks[i])) {
      inputs.push_back(ReportInput{node + "'s ibkit check", *report});
    } else {
      inputs.push_back(ReportInput{node, problem_report(node, std::get<NodeProblem>(checks[i]))});
    }
  }
  auto merged = merge_reports(inputs);
  if (!merged) {
    console.err << "ibkit sweep: " << merged.error().message << "\n";
    return kExitUsage;
  }
  merged->stopped_by = stopped_by;
  const int verdict = report_sweep(options, *baseline, *merged, console);
  // A sweep stopped by its options or the name service says so in its own exit status.
  return swept.report || swept.status <= kExitFail ? verdict : swept.status;
}

}  // namespace ibkit
