#include "cli/sweep_run.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <unistd.h>

#include "cli/report_files.hpp"
#include "cli/serve_command.hpp"
#include "config/config_loader.hpp"
#include "model/sweep_consistency.hpp"
#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "report/sweep_files.hpp"
#include "report/sweep_text.hpp"
#include "schedule/pattern.hpp"
#include "schedule/schedule.hpp"
#include "sweep/coordinator.hpp"
#include "sweep/drive_client.hpp"
#include "sweep/host_lookup.hpp"
#include "sweep/network_runner.hpp"
#include "sweep/sweep_summary.hpp"
#include "util/exit_codes.hpp"
#include "util/process/bounded_threads.hpp"
#include "util/process/stop_signals.hpp"
#include "util/text.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

// What asking every node before the first round learnt: whether any answers (the sweep's own
// mistakes), and their rails (`--rails all`).
struct NodeAnswers {
  int most = 0;         // the most rails any node reported
  int answered = 0;     // nodes that answered
  std::string silence;  // "n1 (ADDRESS): why": the first node that did not answer ("" when all did)
  // The longest session any answering node gives, when every one of them said (older agents
  // do not): a drive longer than that is refused by every node.
  std::optional<double> longest_session_s;
};

// How many nodes are asked at once: a thread each, so 4,096 hosts do not ask for 4,096 threads.
constexpr std::size_t kNodesAskedAtOnce = 64;

// Asks every node, with the key, for its rails, kNodesAskedAtOnce at a time, each by `deadline`
// (nodes that do not answer are left to the sweep).
NodeAnswers ask_every_node(const std::vector<SweepHost>& hosts, const std::optional<SharedKey>& key,
                           const Deadline& deadline) {
  std::mutex mutex;
  NodeAnswers count;
  bool every_session_said = true;
  double longest = 0;
  run_on_bounded_threads(hosts.size(), kNodesAskedAtOnce, [&](std::size_t i) {
    auto answer = ask_node(hosts[i], key, deadline);
    std::lock_guard lock(mutex);
    if (answer) {
      ++count.answered;
      count.most = std::max(count.most, static_cast<int>(answer->rails.size()));
      every_session_said = every_session_said && answer->session_s.has_value();
      longest = std::max(longest, answer->session_s.value_or(0));
    } else if (count.silence.empty()) {
      count.silence = host_description(hosts[i]) + ": " + answer.error().message;
    }
  });
  if (count.answered > 0 && every_session_said) count.longest_session_s = longest;
  return count;
}

// "none of the 4 nodes answered before the first round (within --connect-timeout and
// --deadline), nothing was swept: n1 (10.0.0.1:18515): ..." (the first to answer no), and what
// to do about the commonest causes.
std::string no_node_answered(std::size_t nodes, const std::string& first_silence) {
  std::string fix;
  if (first_silence.find("requires a key") == std::string::npos &&
      first_silence.find("key") != std::string::npos) {
    fix = ": give --key-file the key the agents were started with";
  } else if (first_silence.find("refused") != std::string::npos) {
    fix = ": start the agents first (ibkit serve on every node, or ibkit sweep --launch ssh|slurm)";
  } else if (first_silence.find("unreachable") != std::string::npos ||
             first_silence.find("No route to host") != std::string::npos ||
             first_silence.find("no answer within") != std::string::npos) {
    // Most often the sweep runs on a login node off the nodes' network: their IPoIB addresses
    // are not routed there.
    fix =
        ": this machine reaches none of them; run ibkit sweep on a host of their network (one "
        "of the nodes), or give --hosts addresses this machine reaches";
  }
  return "none of the " + std::to_string(nodes) +
         " nodes answered before the first round (within --connect-timeout and --deadline), "
         "nothing was swept: " +
         first_silence + fix;
}

// "the agents give a session 30 s ... ": every node would refuse every drive of `settings`.
std::string sessions_too_short(double session_s, const SweepSettings& settings) {
  const double deadline_s = settings.drive.deadline_s;
  session_s = std::round(session_s);  // asked a moment after the session began
  return "the agents' sessions last " + format_number(session_s, 0) +
         " s (ibkit serve --session-timeout), less than a pair may take (its deadline " +
         format_number(deadline_s, 0) +
         " s): every node would refuse every pair; start the agents with a --session-timeout "
         "over " +
         format_number(std::ceil(deadline_s + 1), 0) + ", or give --pair-deadline under " +
         format_number(session_s - 1, 0) + " (with a --duration that fits in it)";
}

// The --format list, checked before the sweep runs rather than after.
Expected<std::vector<std::string>> formats_of(const SweepOptions& options) {
  if (options.output.empty()) {
    if (options.format.empty()) return std::vector<std::string>{};
    return Error{"--format " + options.format + " needs --output DIR for the report files"};
  }
  std::vector<std::string> formats = split(options.format.empty() ? "all" : options.format, ',');
  auto known = report_file_formats();
  known.push_back("all");
  for (const auto& format : formats) {
    if (std::find(known.begin(), known.end(), format) == known.end())
      return Error{"--format " + format + ": expected " + format_words(known, " or ")};
  }
  return formats;
}

// Sets up the drive every pair runs and the deadlines; `note` says when the derived pair deadline
// was capped.
Expected<SweepSettings> settings_of(const SweepOptions& options, std::string& note) {
  SweepSettings settings;
  settings.pattern = options.pattern;
  // The report names the seed: the same seed gives the same pairs, another seed covers others.
  if (options.pattern.find("random:") != std::string::npos) {
    settings.pattern += " (seed " + std::to_string(options.seed) + ")";
  }
  DriveRequest& drive = settings.drive;
  static_cast<PairWorkload&>(drive) = workload_of(options.workload);
  if (options.one_way) drive.bidir = false;
  // The default duration goes on the wire as a figure: A's tests and the pair deadline below
  // then agree whatever A's version.
  if (drive.iters == 0) drive.duration_s = test_duration_s(drive, "bw");
  if (!drive.op.empty()) {
    for (const auto& test : drive.tests) {
      if (test == "tcp") continue;
      if (auto valid = check_verbs_operation(test, drive.op); !valid) return valid.error();
    }
  }
  const double planned = planned_seconds(drive);
  double pair_deadline = options.pair_deadline_s;
  if (pair_deadline <= 0) {
    pair_deadline = derived_pair_deadline_s(drive);
    // A drive may not outlast the session A's ibkit serve gives it: by default 600 s.
    const double cap = kDefaultSessionTimeoutS - 10;
    if (pair_deadline > cap) {
      note = "ibkit sweep: a pair's tests may take up to " + format_number(pair_deadline, 0) +
             " s on a slow link; the pair deadline is " + format_number(cap, 0) +
             " s, what an ibkit serve gives a session by default (--session-timeout 600): give "
             "--pair-deadline, and serve's --session-timeout, for more";
      pair_deadline = cap;
    }
  }
  if (planned + 1 > pair_deadline) {
    return Error{"--pair-deadline " + format_number(pair_deadline) +
                 " leaves no time beyond the tests' " + format_number(planned) +
                 " s (--duration x sizes of bw and tcp); raise it or leave it out"};
  }
  drive.deadline_s = std::min(pair_deadline, DriveBounds::kMaxDeadlineS);
  settings.pair_deadline_s = pair_deadline;
  settings.connect_timeout_s = std::min(options.connect_timeout_s, pair_deadline);
  return settings;
}

// A --deadline the schedule cannot meet even if every pair took only its tests' time (--duration
// x sizes) is refused before the first round, with the figures: such a sweep would end with
// most of its pairs not_run, and a report that looks like a fabric problem. The way out it
// names is one that fits: ring, the pattern of fewest rounds, or the --deadline ring needs.
Expected<Done> check_deadline_fits(const SweepOptions& options, const SweepSettings& settings,
                                   std::size_t rounds, int nodes) {
  if (options.deadline_s <= 0) return Done{};
  const double steps = static_cast<double>(rounds) * settings.rails;
  const double pair_seconds = planned_seconds(settings.drive);
  const double least = steps * pair_seconds;
  if (least <= options.deadline_s) return Done{};
  auto counted = [](std::size_t count, const std::string& word) {
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
  };
  const std::size_t ring_rounds = ring_schedule(nodes).size();
  const double ring_least = static_cast<double>(ring_rounds) * settings.rails * pair_seconds;
  const std::string way_out =
      ring_rounds < rounds && ring_least <= options.deadline_s
          ? "raise --deadline, or choose a pattern with fewer rounds (ring has " +
                std::to_string(ring_rounds) + ", about " + format_number(ring_least, 0) + " s)"
          : "raise --deadline to at least " + format_number(std::ceil(ring_least), 0) +
                " s (ring, the pattern of fewest rounds, has " + std::to_string(ring_rounds) + ")";
  return Error{"--deadline " + format_number(options.deadline_s) + ": " + counted(rounds, "round") +
               " on " + counted(static_cast<std::size_t>(settings.rails), "rail") +
               " need at least " + format_number(least, 0) + " s, each pair's tests taking " +
               format_number(pair_seconds) + " s; " + way_out};
}

// How much of the nodes' line a terminal gets: it must not wrap, or the rewrite goes astray.
constexpr std::size_t kTerminalLine = 110;

// On a terminal, two lines rewritten in place: the figures, and the nodes behind them (which
// pairs the step waits for, the silent, those with pairs not passing). Otherwise one plain line
// as each step ends, for a batch job's or a CI run's log.
ProgressSink progress_sink(bool terminal) {
  if (terminal) {
    return [](const SweepProgress& progress) {
      std::string nodes = progress_nodes(progress);
      if (nodes.size() > kTerminalLine)
        nodes = std::string(utf8_prefix(nodes, kTerminalLine - 3)) + "...";
      std::cerr << "\r\033[K" << progress_line(progress) << "\n\033[K" << nodes << "\033[1A\r"
                << std::flush;
    };
  }
  auto last_step = std::make_shared<int>(0);
  return [last_step](const SweepProgress& progress) {
    if (!progress.waiting_for.empty() || progress.step == *last_step) return;
    *last_step = progress.step;
    const std::string nodes = progress_nodes(progress);
    std::cerr << "ibkit sweep: " << progress_line(progress) << (nodes.empty() ? "" : "; " + nodes)
              << "\n"
              << std::flush;
  };
}

// "2 nodes are in no pair, which fails the sweep: h2, h3"; "" when the schedule pairs every node.
std::string nodes_in_no_pair(const std::vector<SweepHost>& hosts, const Schedule& schedule) {
  const std::vector<bool> paired = nodes_in_pairs(schedule, hosts.size());
  std::vector<std::string> unpaired;
  for (std::size_t i = 0; i < hosts.size(); ++i)
    if (!paired[i]) unpaired.push_back(hosts[i].name);
  if (unpaired.empty()) return "";
  return count_of(unpaired.size(), "node is", "nodes are") +
         " in no pair, which fails the sweep: " + join_capped(unpaired, 8, ", ");
}

}  // namespace

SweepOutcome sweep_hosts(const SweepOptions& options, const std::vector<SweepHost>& hosts_given,
                         const std::optional<SharedKey>& key, Console& console) {
  auto fail_usage = [&](const std::string& message) {
    console.err << "ibkit sweep: " << message << "\n";
    return SweepOutcome{kExitUsage, {}};
  };
  const std::vector<SweepHost>* hosts = &hosts_given;
  // The sweep's clock starts here: building the schedule (from a topology, the work grows with
  // its size), looking the names up and asking the nodes for their rails count against it too.
  std::optional<Deadline> deadline;
  if (options.deadline_s > 0) deadline = Deadline::after_seconds(options.deadline_s);
  PatternTopology topology;
  auto schedule = schedule_for_pattern(options.pattern, *hosts, options.seed, &topology, deadline);
  const std::string& coverage = topology.coverage;
  if (!schedule) return fail_usage(schedule.error().message);
  Expected<Config> config =
      options.config.empty() ? Expected<Config>(Config{}) : load_config(options.config);
  if (!config) return fail_usage(config.error().message);
  std::string note;
  auto settings = settings_of(options, note);
  if (!settings) return fail_usage(settings.error().message);
  settings->fleet = config->thresholds.fleet;
  if (!coverage.empty()) settings->pattern += " (" + coverage + ")";
  settings->routes = std::move(topology.routes);
  if (!note.empty()) console.err << note << "\n";
  auto formats = formats_of(options);
  if (!formats) return fail_usage(formats.error().message);
  if (!formats->empty() && !options.dry_run) {
    auto ready = prepare_report_dir(options.output);
    if (!ready) return fail_usage("--output " + ready.error().message);
  }
  settings->deadline = deadline;
  // A sweep stopped before its first round (a launched one, while its nodes were checked)
  // looks up and asks nobody: its pairs are not run.
  const bool stopped_before = StopSignals::received() != 0;
  if (!options.dry_run && !stopped_before) {
    Deadline look_up_until = Deadline::after_seconds(settings->connect_timeout_s);
    if (settings->deadline) look_up_until = look_up_until.min(*settings->deadline);
    if (auto looked_up = look_up_hosts(*hosts, look_up_until); !looked_up) {
      console.err << "ibkit sweep: --hosts: " << looked_up.error().message << "\n";
      return {looked_up.error().environment ? kExitEnvironment : kExitUsage, {}};
    }
  }
  const bool rails_from_nodes = options.rails == "all" && !options.dry_run;
  if (options.rails == "all") {
    settings->rails = 1;  // the nodes say how many they have; a dry run asks no node
  } else {
    auto rails = parse_unsigned(options.rails);
    if (!rails || *rails < 1 || *rails > kMaxRails) {
      return fail_usage("--rails " + options.rails + ": expected all or 1.." +
                        std::to_string(kMaxRails));
    }
    settings->rails = static_cast<int>(*rails);
  }
  // A sweep whose report `ibkit report` could not read back, or whose rounds cannot meet its
  // --deadline, is refused before it runs (and before any node is asked).
  auto check_fits = [&]() -> std::optional<SweepOutcome> {
    if (auto size = check_report_size(hosts->size(), settings->rails); !size)
      return fail_usage("--hosts and --rails: " + size.error().message);
    if (auto fits = check_deadline_fits(options, *settings, schedule->size(),
                                        static_cast<int>(hosts->size()));
        !fits)
      return fail_usage(fits.error().message);
    return std::nullopt;
  };
  if (!rails_from_nodes) {
    if (auto refused = check_fits()) return *refused;
  }
  // Every node is asked once before the first round (for its rails, with the key): a sweep none
  // of whose nodes answers, or all of which refuse its key, is the sweep's own mistake, said
  // once with its fix, not blame on every node.
  if (!options.dry_run && !stopped_before) {
    Deadline ask_until = Deadline::after_seconds(settings->connect_timeout_s);
    if (settings->deadline) ask_until = ask_until.min(*settings->deadline);
    const NodeAnswers asked = ask_every_node(*hosts, key, ask_until);
    if (asked.answered == 0) {
      console.err << "ibkit sweep: " << no_node_answered(hosts->size(), asked.silence) << "\n";
      return {kExitEnvironment, {}};
    }
    // A drive needs a second beyond its deadline: the connection and the request come first.
    if (asked.longest_session_s && *asked.longest_session_s < settings->drive.deadline_s + 1) {
      console.err << "ibkit sweep: " << sessions_too_short(*asked.longest_session_s, *settings)
                  << "\n";
      return {kExitEnvironment, {}};
    }
    if (rails_from_nodes) {
      if (asked.most == 0) {
        console.err << "ibkit sweep: --rails all: no node reported an RDMA device with an Active "
                       "port (ibkit check on the nodes says why)\n";
        return {kExitEnvironment, {}};
      }
      settings->rails = asked.most;
      if (auto refused = check_fits()) return *refused;
    }
  }
  if (options.dry_run) {
    std::string ways;
    for (const auto& test : settings->drive.tests) {
      if (test == "lat") continue;
      ways += (ways.empty() ? ", " : " and ") + test;
    }
    if (!ways.empty()) ways += settings->drive.bidir ? " both ways at once" : " one way";
    const std::string unpaired = nodes_in_no_pair(*hosts, *schedule);
    console.out << "ibkit sweep: the options are valid: "
                << count_of(hosts->size(), "node", "nodes") << ", "
                << count_of(schedule->size(), "round", "rounds") << ways
                << (coverage.empty() ? "" : "; the rounds " + coverage)
                << (unpaired.empty() ? "" : "; " + unpaired) << "; nothing ran (--dry-run)\n";
    return {kExitPass, {}};
  }

  const bool terminal = isatty(STDERR_FILENO) == 1;
  // SIGTERM (Slurm's time limit) and Ctrl-C end the sweep, not the process: the pairs in flight
  // finish, the rest are not run, and the report of what was measured is written.
  const StopSignals stop_signals;
  settings->stop_signal = [] { return StopSignals::received(); };
  SweepReport report =
      run_sweep(*hosts, *schedule, *settings, network_runner(*settings, key, config->thresholds),
                progress_sink(terminal));
  if (terminal) console.err << "\r\033[K\n\033[K\033[1A\r" << std::flush;
  return {sweep_failed(report) ? kExitFail : kExitPass, std::move(report)};
}

int report_sweep(const SweepOptions& options, const std::optional<SweepReport>& baseline,
                 SweepReport& report, Console& console) {
  if (auto judged = judge_with_baseline(report, baseline, options.baseline); !judged) {
    console.err << "ibkit sweep: " << judged.error().message << "\n";
    return kExitUsage;
  }
  console.out << sweep_headline(report) << "\n"
              << render_sweep_text(report, console.colour, console.width);
  const int verdict = sweep_failed(report) ? kExitFail : kExitPass;
  // The verdict stands when its files cannot be written (a failing sweep still exits 1); a
  // passing one whose report is lost is an environment error (a full disk, no permission).
  const int status =
      options.output.empty()
          ? verdict
          : write_report_files(console, "sweep", report, options.output,
                               split(options.format.empty() ? "all" : options.format, ','), verdict,
                               verdict == kExitFail ? kExitFail : kExitEnvironment);
  if (report.stopped_by == 0) return status;
  // As a shell reports a process a signal ended (128 + the signal), after the report.
  std::size_t not_run = 0;
  for (const auto& pair : report.pairs) not_run += pair.status == PairStatus::kNotRun ? 1 : 0;
  console.err << "ibkit sweep: stopped by " << stop_signal_name(report.stopped_by) << ": "
              << count_of(report.pairs.size() - not_run, "pair", "pairs") << " measured, "
              << not_run << " not run"
              << (options.output.empty() ? "" : "; the report is in " + options.output) << "\n";
  return 128 + report.stopped_by;
}

}  // namespace ibkit
