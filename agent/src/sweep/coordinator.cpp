#include "sweep/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include "model/sweep_report.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "rules/link_blame.hpp"
#include "util/hostname.hpp"
#include "util/utc_time.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;
using namespace std::chrono_literals;

// A step with at least this many pairs unanswered, and more than half of them, is a fabric-wide
// event. A dead node silences one pair a step, so it takes more than a quarter of the nodes
// dead at once, and at least four: three dead nodes of eight are three dead nodes.
constexpr std::size_t kFabricEventPairs = 4;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

PairAttempt attempt_of(PairStatus status, std::string reason) {
  PairAttempt attempt;
  attempt.status = status;
  attempt.reason = std::move(reason);
  return attempt;
}

// A group of pairs (indices into report.pairs) that share no node, run at once.
using Step = std::vector<std::size_t>;

// One pair a step runs: the record its attempt is written to, and its index in report.pairs
// when it is one of the report's pairs (a control measured beside a retest is not).
struct StepPair {
  SweepPair* pair = nullptr;
  std::optional<std::size_t> index;
};

class Coordinator {
 public:
  Coordinator(const std::vector<SweepHost>& hosts, const SweepSettings& settings,
              const PairRunner& runner, const ProgressSink& progress)
      : hosts_(hosts),
        settings_(settings),
        runner_(runner),
        progress_(progress),
        silent_(hosts.size(), 0),
        not_passing_(hosts.size(), 0) {
    for (std::size_t i = 0; i < hosts.size(); ++i) index_of_[hosts[i].name] = static_cast<int>(i);
    sweep_deadline_ = settings.deadline;
  }

  SweepReport run(const Schedule& schedule) {
    SweepReport report;
    report.generated_at = utc_timestamp();
    report.coordinator = local_hostname();
    report.pattern = settings_.pattern;
    report.tests = settings_.drive.tests;
    for (const auto& host : hosts_) report.nodes.push_back(host.name);
    report.rails = settings_.rails;
    report.rounds = static_cast<int>(schedule.size());
    std::vector<Step> steps;
    for (std::size_t round = 0; round < schedule.size(); ++round) {
      for (int rail = 0; rail < settings_.rails; ++rail) {
        Step step;
        for (const auto& pair : schedule[round]) {
          step.push_back(report.pairs.size());
          SweepPair entry;
          entry.a = hosts_[static_cast<std::size_t>(pair.a)].name;
          entry.b = hosts_[static_cast<std::size_t>(pair.b)].name;
          entry.rail = rail;
          entry.round = static_cast<int>(round) + 1;
          report.pairs.push_back(std::move(entry));
        }
        steps.push_back(std::move(step));
      }
    }
    report_ = &report;
    progress_state_.total = report.pairs.size();
    progress_state_.steps = static_cast<int>(steps.size());
    for (const auto& step : steps) run_step(in_report(step));
    judge_fleet_first();
    recheck_silenced_nodes();
    retest_bad_pairs();
    retest_fleet_pairs();
    judge_fleet_retested();
    report.wall_seconds = seconds_since(start_);
    blame_nodes(report);
    blame_links(report, settings_.routes);
    return report;
  }

 private:
  int index(const std::string& name) const { return index_of_.at(name); }
  bool silenced(const std::string& name) const {
    return silent_[static_cast<std::size_t>(index(name))] >= settings_.silent_limit;
  }

  // Why a pair cannot run now: the sweep's deadline passed or one of its nodes went silent;
  // "" when it can.
  bool sweep_expired() const { return sweep_deadline_ && sweep_deadline_->expired(); }

  std::string skip_reason(const SweepPair& pair) const {
    if (sweep_expired()) {
      return "not run: the sweep's --deadline passed";
    }
    if (silenced(pair.a) || silenced(pair.b)) {
      const std::string& node = silenced(pair.a) ? pair.a : pair.b;
      return "not run: node " + node + " did not answer its last " +
             std::to_string(settings_.silent_limit) + " pairs";
    }
    return "";
  }

  // Leaves a pair out for `reason` ("not run: ..."). A first attempt becomes not_run; a retest
  // keeps what the first attempt measured and only notes why it was not retested.
  static void leave_out(SweepPair& pair, const std::string& reason) {
    if (pair.attempts > 0) {
      pair.reason += "; retest " + reason;
      return;
    }
    pair.status = PairStatus::kNotRun;
    pair.reason = reason;
  }

  // The pairs of `step`, as report.pairs holds them.
  std::vector<StepPair> in_report(const Step& step) const {
    std::vector<StepPair> pairs;
    pairs.reserve(step.size());
    for (std::size_t index : step) pairs.push_back({&report_->pairs[index], index});
    return pairs;
  }

  // Runs `step`'s pairs at once (they share no node) and records each attempt in its pair.
  void run_step(const std::vector<StepPair>& step) {
    ++progress_state_.step;
    const Clock::time_point step_start = Clock::now();
    std::vector<StepPair> running;
    for (const StepPair& run : step) {
      SweepPair& pair = *run.pair;
      if (const std::string reason = skip_reason(pair); !reason.empty()) {
        if (pair.attempts == 0 && !sweep_expired() && run.index) {
          left_out_silent_.push_back(*run.index);
        }
        leave_out(pair, reason);
        finished(pair);
      } else {
        running.push_back(run);
      }
    }
    std::vector<std::optional<PairAttempt>> attempts(running.size());
    std::vector<std::thread> threads;
    threads.reserve(running.size());  // growing the vector must not destroy joinable threads
    std::mutex mutex;
    std::condition_variable changed;
    Deadline deadline = Deadline::after_seconds(settings_.pair_deadline_s);
    if (sweep_deadline_) deadline = deadline.min(*sweep_deadline_);
    for (std::size_t i = 0; i < running.size(); ++i) {
      const SweepPair& pair = *running[i].pair;
      const SweepHost& a = hosts_[static_cast<std::size_t>(index(pair.a))];
      const SweepHost& b = hosts_[static_cast<std::size_t>(index(pair.b))];
      try {
        threads.emplace_back([&, i, rail = pair.rail] {
          const Clock::time_point started = Clock::now();
          PairAttempt attempt = attempt_guarded(a, b, rail, deadline);
          attempt.seconds = seconds_since(started);
          std::lock_guard lock(mutex);
          attempts[i] = std::move(attempt);
          changed.notify_all();
        });
      } catch (const std::system_error& error) {
        // Out of threads: the pairs not started yet are left out; those started finish.
        std::lock_guard lock(mutex);
        for (std::size_t j = i; j < running.size(); ++j) {
          attempts[j] =
              attempt_of(PairStatus::kNotRun,
                         std::string("not run: could not start a thread (") + error.what() + ")");
        }
        break;
      }
    }
    std::vector<Silence> silences;
    {
      std::unique_lock lock(mutex);
      std::vector<bool> recorded(running.size(), false);
      for (std::size_t count = 0; count < running.size();) {
        changed.wait_for(lock, 250ms);
        for (std::size_t i = 0; i < running.size(); ++i) {
          if (!attempts[i] || recorded[i]) continue;
          if (auto silence = record(running[i], std::move(*attempts[i]))) {
            silences.push_back(*silence);
          }
          recorded[i] = true;
          ++count;
        }
        progress_state_.waiting_for.clear();
        for (std::size_t i = 0; i < running.size(); ++i) {
          if (!recorded[i])
            progress_state_.waiting_for.push_back(running[i].pair->a + "-" + running[i].pair->b);
        }
        report_progress(step_start);
      }
    }
    for (auto& thread : threads) thread.join();
    note_silences(running, silences);
    step_seconds_ += seconds_since(step_start);
    ++steps_timed_;
    report_progress(step_start);
  }

  // One attempt through the runner; an exception from it becomes a failed attempt.
  PairAttempt attempt_guarded(const SweepHost& a, const SweepHost& b, int rail,
                              const Deadline& deadline) const {
    try {
      return runner_(a, b, rail, deadline);
    } catch (const std::exception& error) {
      return attempt_of(PairStatus::kFailed, std::string("internal error: ") + error.what());
    } catch (...) {
      return attempt_of(PairStatus::kFailed, "internal error: an unknown exception");
    }
  }

  // Whether a pair's nodes answered, noted once its whole step is in (note_silences).
  struct Silence {
    SweepPair* pair = nullptr;
    bool a_silent = false;
    bool b_silent = false;
    bool b_answered = false;
  };

  // Records an attempt; returns what it says about its nodes' silence, if it asked them.
  std::optional<Silence> record(const StepPair& run, PairAttempt attempt) {
    SweepPair& pair = *run.pair;
    if (attempt.status == PairStatus::kNotRun) {
      // Nothing was measured and no node was asked: no news about silence either.
      leave_out(pair, attempt.reason);
      finished(pair);
      return std::nullopt;
    }
    if (attempt_number_ > 1 && run.index) retested_.push_back(*run.index);
    const std::string first = pair.attempts > 0 && pair.status != PairStatus::kPass
                                  ? std::string(pair_status_name(pair.status)) + ": " + pair.reason
                                  : "";
    // A pair first left out for a silent node and run in the recheck has had one attempt.
    pair.attempts = std::min(pair.attempts + 1, attempt_number_);
    pair.status = attempt.status;
    pair.reason = attempt.reason;
    pair.seconds = attempt.seconds;
    pair.report = std::move(attempt.report);
    pair.rules = {true, attempt.threshold_rule, false};
    if (!first.empty() && pair.status == PairStatus::kPass) {
      pair.reason = "passed on retest; first attempt " + first;
    }
    finished(pair);
    // B answered only if A got as far as sending a report that says so.
    return Silence{run.pair, attempt.a_silent, attempt.b_silent, pair.report.has_value()};
  }

  // Counts each node's silences in a row, unless most of the step went unanswered at once: that
  // is the fabric (a switch rebooting, a storm), not the nodes, and it is held against none of
  // them. Their pairs are bad and retested like any other.
  void note_silences(const std::vector<StepPair>& running, const std::vector<Silence>& seen) {
    const auto silent = static_cast<std::size_t>(
        std::count_if(seen.begin(), seen.end(),
                      [](const Silence& silence) { return silence.a_silent || silence.b_silent; }));
    if (silent >= kFabricEventPairs && silent * 2 > running.size()) {
      const std::string note = "; " + std::to_string(silent) + " of " +
                               std::to_string(running.size()) +
                               " pairs of this step went unanswered at once: a fabric-wide "
                               "event, held against no node";
      for (const auto& silence : seen) {
        if (silence.a_silent || silence.b_silent) silence.pair->reason += note;
      }
      return;
    }
    for (const auto& silence : seen) {
      const SweepPair& pair = *silence.pair;
      note_silence(pair.a, silence.a_silent, !silence.a_silent);
      note_silence(pair.b, silence.b_silent, silence.b_answered);
    }
  }

  // A node silenced during the rounds may have been down for a moment only (a reboot, a
  // flapping link): before the retests every node gets its silence forgiven, and the pairs it
  // was left out of run with the retests. A node still silent is silenced again after
  // silent_limit pairs, so a dead one costs a few connect timeouts more, not all its pairs.
  void recheck_silenced_nodes() {
    if (left_out_silent_.empty()) return;
    std::fill(silent_.begin(), silent_.end(), 0);
    recheck_.assign(report_->pairs.size(), false);
    for (std::size_t index : left_out_silent_) recheck_[index] = true;
  }

  bool rechecked(std::size_t index) const { return index < recheck_.size() && recheck_[index]; }

  void note_silence(const std::string& node, bool silent, bool answered) {
    auto& count = silent_[static_cast<std::size_t>(index(node))];
    if (silent) {
      ++count;
    } else if (answered) {
      count = 0;
    }
  }

  void finished(const SweepPair& pair) {
    ++progress_state_.done;
    if (pair.status == PairStatus::kPass) return;
    ++progress_state_.bad;
    ++not_passing_[static_cast<std::size_t>(index(pair.a))];
    ++not_passing_[static_cast<std::size_t>(index(pair.b))];
  }

  // The fleet rule over the first attempts: the pairs far from the fleet become slow.
  void judge_fleet_first() {
    pair_count_ = report_->pairs.size();
    fleet_first_ = judge_fleet(*report_, settings_.fleet);
  }

  bool fleet_far(std::size_t index) const {
    return index < fleet_first_.size() && !fleet_first_[index].shortfalls.empty();
  }

  // Whether the fleet rule found pair `index`'s `figure` far on its first attempt.
  bool far_in(std::size_t index, const FleetFigure& figure) const {
    if (index >= fleet_first_.size()) return false;
    const auto& shortfalls = fleet_first_[index].shortfalls;
    return std::any_of(shortfalls.begin(), shortfalls.end(), [&](const FleetShortfall& shortfall) {
      return shortfall.figure.subject == figure.subject &&
             shortfall.figure.latency == figure.latency;
    });
  }

  // Every retested pair against the fleet's typical figures of the first attempts. A pair the
  // rule found far stays slow only when its retest is far too, as confirm_with_control weighs it
  // with the control measured with it; a pair retested for another cause is judged on its
  // retest alone.
  void judge_fleet_retested() {
    if (!report_->fleet) return;
    for (std::size_t index : retested_) {
      SweepPair& pair = report_->pairs[index];
      FleetVerdict verdict = fleet_verdict(pair, report_->fleet->references, settings_.fleet);
      const bool was_far = fleet_far(index);
      if (was_far) {
        if (auto found = controls_.find(index); found != controls_.end()) {
          verdict = confirm_with_control(verdict, found->second, settings_.rails, settings_.fleet);
        }
      }
      const bool passed = pair.status == PairStatus::kPass;
      apply_fleet_verdict(pair, verdict);
      if (was_far && passed && pair.status == PairStatus::kSlow)
        pair.reason += ", on both attempts";
    }
  }

  // A control for pair `index`: a pair on its rail whose tests ran, that measured the figure the
  // rule found far without being far in it, nearest the fleet's typical one; one that shares no
  // node with the pair first, so that it can run beside it.
  std::optional<std::size_t> control_for(std::size_t index) const {
    const SweepPair& suspect = report_->pairs[index];
    const FleetShortfall& shortfall = fleet_first_[index].shortfalls.front();
    std::optional<std::size_t> best;
    std::pair<bool, double> best_score{false, 0};
    for (std::size_t i = 0; i < pair_count_; ++i) {
      const SweepPair& pair = report_->pairs[i];
      // A pair slow by the fleet rule alone, for another figure, can still measure this one.
      const bool ran =
          pair.status == PairStatus::kPass ||
          (pair.status == PairStatus::kSlow && pair.rules.fleet && !pair.rules.threshold);
      if (i == index || pair.rail != suspect.rail || !ran || silenced(pair.a) || silenced(pair.b)) {
        continue;
      }
      for (const auto& figure : fleet_figures(pair)) {
        if (figure.subject != shortfall.figure.subject ||
            figure.latency != shortfall.figure.latency || !(figure.value > 0) ||
            far_in(i, figure)) {
          continue;
        }
        const bool shares = pair.a == suspect.a || pair.a == suspect.b || pair.b == suspect.a ||
                            pair.b == suspect.b;
        // Sharing no node first, then the figure nearest the typical one (by ratio).
        const std::pair<bool, double> score{shares,
                                            std::abs(std::log(figure.value / shortfall.typical))};
        if (!best || score < best_score) {
          best = i;
          best_score = score;
        }
      }
    }
    return best;
  }

  // Retests the pairs the fleet rule found far, one at a time, each with a control (a pair
  // that was not far) measured beside it, or right after it when every candidate shares a node
  // with it. The control is measured, not recorded: its own result stays its first attempt's.
  void retest_fleet_pairs() {
    std::vector<std::size_t> far;
    for (std::size_t i = 0; i < pair_count_; ++i) {
      const SweepPair& pair = report_->pairs[i];
      if (fleet_far(i) && !silenced(pair.a) && !silenced(pair.b)) far.push_back(i);
    }
    if (far.empty()) return;
    attempt_number_ = 2;
    progress_state_.retesting = true;
    for (std::size_t index : far) {
      const std::optional<std::size_t> control = control_for(index);
      if (!control) {
        ++progress_state_.total;
        ++progress_state_.steps;
        run_step(in_report({index}));
        continue;
      }
      SweepPair probe = report_->pairs[*control];
      probe.attempts = 0;  // it ran only if record() gives it an attempt
      probe.status = PairStatus::kNotRun;
      const SweepPair& suspect = report_->pairs[index];
      const bool beside = probe.a != suspect.a && probe.a != suspect.b && probe.b != suspect.a &&
                          probe.b != suspect.b;
      const StepPair retest{&report_->pairs[index], index};
      const StepPair measured_control{&probe, std::nullopt};
      progress_state_.total += 2;
      progress_state_.steps += beside ? 1 : 2;
      if (beside) {
        run_step({retest, measured_control});
      } else {
        run_step({retest});
        run_step({measured_control});
      }
      if (probe.attempts > 0) controls_.emplace(index, std::move(probe));
    }
  }

  // Retests every bad pair the fleet rule did not find far once, in disjoint rounds.
  void retest_bad_pairs() {
    std::vector<ScheduledPair> bad;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < report_->pairs.size(); ++i) {
      const SweepPair& pair = report_->pairs[i];
      if ((!pair_bad(pair) && !rechecked(i)) || fleet_far(i) || silenced(pair.a) ||
          silenced(pair.b)) {
        continue;
      }
      bad.push_back({index(pair.a), index(pair.b)});
      which.push_back(i);
    }
    if (bad.empty()) return;
    // Packed by node: two rails of one pair share nodes, so they land in different rounds.
    const Schedule rounds = pack_rounds(bad);
    attempt_number_ = 2;
    progress_state_.retesting = true;
    progress_state_.total += bad.size();
    progress_state_.steps += static_cast<int>(rounds.size());
    std::vector<bool> used(bad.size(), false);
    for (const auto& round : rounds) {
      Step step;
      for (const auto& pair : round) {
        for (std::size_t i = 0; i < bad.size(); ++i) {
          if (used[i] || bad[i].a != pair.a || bad[i].b != pair.b) continue;
          used[i] = true;
          step.push_back(which[i]);
          break;
        }
      }
      run_step(in_report(step));
    }
  }

  void report_progress(Clock::time_point step_start) {
    if (!progress_) return;
    progress_state_.elapsed_s = seconds_since(start_);
    const double mean = steps_timed_ > 0 ? step_seconds_ / steps_timed_ : seconds_since(step_start);
    progress_state_.eta_s = std::max(
        0.0, mean * (progress_state_.steps - progress_state_.step + 1) - seconds_since(step_start));
    progress_state_.step_elapsed_s = seconds_since(step_start);
    progress_state_.silent.clear();
    progress_state_.not_passing.clear();
    for (std::size_t i = 0; i < hosts_.size(); ++i) {
      if (silent_[i] > 0) progress_state_.silent.push_back(hosts_[i].name);
      if (not_passing_[i] > 0)
        progress_state_.not_passing.emplace_back(hosts_[i].name, not_passing_[i]);
    }
    std::stable_sort(progress_state_.not_passing.begin(), progress_state_.not_passing.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    progress_(progress_state_);
  }

  const std::vector<SweepHost>& hosts_;
  const SweepSettings& settings_;
  const PairRunner& runner_;
  const ProgressSink& progress_;
  std::vector<int> silent_;
  std::vector<int> not_passing_;  // by node: its pairs that did not pass, for the progress
  std::map<std::string, int> index_of_;
  std::optional<Deadline> sweep_deadline_;
  SweepReport* report_ = nullptr;
  int attempt_number_ = 1;
  std::size_t pair_count_ = 0;                 // report.pairs, once the rounds have run
  std::vector<FleetVerdict> fleet_first_;      // the fleet rule on each pair's first attempt
  std::map<std::size_t, SweepPair> controls_;  // pair -> the control measured with its retest
  std::vector<std::size_t> retested_;          // pairs a retest recorded a result for
  std::vector<std::size_t> left_out_silent_;   // first attempts skipped for a silent node
  std::vector<bool> recheck_;                  // by pair: run with the retests (a second chance)
  SweepProgress progress_state_;
  Clock::time_point start_ = Clock::now();
  double step_seconds_ = 0;
  int steps_timed_ = 0;
};

}  // namespace

SweepReport run_sweep(const std::vector<SweepHost>& hosts, const Schedule& schedule,
                      const SweepSettings& settings, const PairRunner& runner,
                      const ProgressSink& progress) {
  return Coordinator(hosts, settings, runner, progress).run(schedule);
}

PairRunner network_runner(const SweepSettings& settings, const std::optional<SharedKey>& key,
                          const Thresholds& thresholds) {
  return [settings, key, thresholds](const SweepHost& a, const SweepHost& b, int rail,
                                     const Deadline& deadline) {
    DriveRequest drive = settings.drive;
    drive.peer = b.address;
    drive.port = b.port;
    if (settings.rails > 1 || rail > 0) drive.rail = rail;
    // A must give up on B before the coordinator gives up on A, so a silent B is reported
    // by A as B's fault rather than as A timing out.
    const double left = deadline.remaining_ms() / 1000.0;
    drive.deadline_s = std::max(DriveBounds::kMinDeadlineS, std::min(drive.deadline_s, left - 1));
    drive.connect_timeout_s = settings.connect_timeout_s;
    // tcp rides the IP address, the same whatever the rail: once, on rail 0, is enough.
    if (rail > 0 && drive.tests.size() > 1) std::erase(drive.tests, "tcp");
    // Too little time left for the tests: A would refuse the drive, or the coordinator give up
    // on it, and the pair would count against a node that did nothing wrong.
    if (planned_seconds(drive) > std::min(drive.deadline_s, left)) {
      return attempt_of(PairStatus::kNotRun,
                        "not run: the sweep's --deadline left too little time");
    }
    return judge_drive(a, b, drive_pair(a, drive, key, settings.connect_timeout_s, deadline),
                       thresholds);
  };
}

}  // namespace ibkit
