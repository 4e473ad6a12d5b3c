#include "sweep/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>

#include "model/sweep_report.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_retest.hpp"
#include "rules/fleet_verdict.hpp"
#include "rules/link_blame.hpp"
#include "schedule/scheduled_pairs.hpp"
#include "sweep/concurrent_attempts.hpp"
#include "sweep/silence_tracker.hpp"
#include "util/hostname.hpp"
#include "util/process/stop_signals.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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
        silence_(hosts.size(), settings.silent_limit),
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
    const std::vector<Step> steps = add_scheduled_pairs(report, hosts_, schedule, settings_.rails);
    report_ = &report;
    progress_state_.total = report.pairs.size();
    progress_state_.steps = static_cast<int>(steps.size());
    for (const auto& step : steps) run_step(in_report(step));
    judge_fleet_first();
    recheck_silenced_nodes();
    retest_bad_pairs();
    retest_fleet_pairs();
    judge_fleet_retests(report, retested_, fleet_first_, controls_, settings_.rails,
                        settings_.fleet);
    report.wall_seconds = seconds_since(start_);
    report.stopped_by = stopped_by();
    blame_nodes(report);
    blame_links(report, settings_.routes);
    return report;
  }

 private:
  int index(const std::string& name) const { return index_of_.at(name); }
  std::size_t node(const std::string& name) const { return static_cast<std::size_t>(index(name)); }
  bool silenced(const std::string& name) const { return silence_.silenced(node(name)); }

  // Why a pair cannot run now: the sweep's deadline passed or one of its nodes went silent;
  // "" when it can.
  bool sweep_expired() const {
    return (sweep_deadline_ && sweep_deadline_->expired()) || stopped_by() != 0;
  }
  int stopped_by() const { return settings_.stop_signal ? settings_.stop_signal() : 0; }

  std::string skip_reason(const SweepPair& pair) const {
    if (const int signal = stopped_by(); signal != 0) {
      return "not run: the sweep was stopped by " + stop_signal_name(signal);
    }
    if (sweep_expired()) {
      return "not run: the sweep's --deadline passed";
    }
    if (silenced(pair.a) || silenced(pair.b)) {
      const std::string& quiet = silenced(pair.a) ? pair.a : pair.b;
      return "not run: node " + quiet + " did not answer its last " +
             std::to_string(settings_.silent_limit) + " pairs";
    }
    return "";
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
    Deadline deadline = Deadline::after_seconds(settings_.pair_deadline_s);
    if (sweep_deadline_) deadline = deadline.min(*sweep_deadline_);
    std::vector<PairSilence> silences;
    std::vector<SweepPair*> asked;  // the pair of each silence
    run_concurrent_attempts(
        running.size(),
        [&](std::size_t i) {
          const SweepPair& pair = *running[i].pair;
          const Clock::time_point started = Clock::now();
          PairAttempt attempt =
              attempt_guarded(hosts_[node(pair.a)], hosts_[node(pair.b)], pair.rail, deadline);
          attempt.seconds = seconds_since(started);
          return attempt;
        },
        [&](std::size_t i, PairAttempt attempt) {
          if (auto silence = record(running[i], std::move(attempt))) {
            silences.push_back(*silence);
            asked.push_back(running[i].pair);
          }
        },
        [&](const std::vector<bool>& finished) {
          progress_state_.waiting_for.clear();
          for (std::size_t i = 0; i < running.size(); ++i) {
            if (!finished[i])
              progress_state_.waiting_for.push_back(running[i].pair->a + "-" + running[i].pair->b);
          }
          report_progress(step_start);
        });
    // A fabric-wide event is held against no node; its pairs say so, and are bad and retested
    // like any other.
    if (auto fabric_event = silence_.note_step(silences, running.size())) {
      for (std::size_t i = 0; i < silences.size(); ++i) {
        if (silences[i].a_silent || silences[i].b_silent) asked[i]->reason += *fabric_event;
      }
    }
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

  // Records an attempt; returns what it says about its nodes' silence, if it asked them.
  std::optional<PairSilence> record(const StepPair& run, PairAttempt attempt) {
    SweepPair& pair = *run.pair;
    if (attempt.status == PairStatus::kNotRun) {
      // Nothing was measured and no node was asked: no news about silence either.
      leave_out(pair, attempt.reason);
      finished(pair);
      return std::nullopt;
    }
    if (attempt_number_ > 1 && run.index) retested_.push_back(*run.index);
    // B answered only if A got as far as sending a report that says so.
    const PairSilence silence{node(pair.a), node(pair.b), attempt.a_silent, attempt.b_silent,
                              attempt.report.has_value()};
    record_attempt(pair, std::move(attempt), attempt_number_);
    finished(pair);
    return silence;
  }

  // A node silenced during the rounds may have been down for a moment only (a reboot, a
  // flapping link): before the retests every node gets its silence forgiven, and the pairs it
  // was left out of run with the retests. A node that was silenced and is still silent is
  // silenced again by its first pair, so a dead one costs one connect timeout more (a frozen
  // one a pair deadline), not all its pairs.
  void recheck_silenced_nodes() {
    if (left_out_silent_.empty()) return;
    silence_.forgive_all();
    recheck_.assign(report_->pairs.size(), false);
    for (std::size_t index : left_out_silent_) recheck_[index] = true;
  }

  bool rechecked(std::size_t index) const { return index < recheck_.size() && recheck_[index]; }

  void finished(const SweepPair& pair) {
    ++progress_state_.done;
    if (pair.status == PairStatus::kPass) return;
    // Left out by the deadline or a stop signal: nothing was wrong with it or its nodes.
    if (pair.status == PairStatus::kNotRun && sweep_expired()) return;
    ++progress_state_.bad;
    ++not_passing_[node(pair.a)];
    ++not_passing_[node(pair.b)];
  }

  // The fleet rule over the first attempts: the pairs far from the fleet become slow.
  void judge_fleet_first() { fleet_first_.verdicts = judge_fleet(*report_, settings_.fleet); }

  // Retests the pairs the fleet rule found far, one at a time, each with a control (a pair
  // that was not far) measured beside it, or right after it when every candidate shares a node
  // with it. The control is measured, not recorded: its own result stays its first attempt's.
  void retest_fleet_pairs() {
    std::vector<std::size_t> far;
    for (std::size_t i = 0; i < fleet_first_.verdicts.size(); ++i) {
      const SweepPair& pair = report_->pairs[i];
      if (fleet_first_.far(i) && !silenced(pair.a) && !silenced(pair.b)) far.push_back(i);
    }
    if (far.empty()) return;
    attempt_number_ = 2;
    progress_state_.retesting = true;
    for (std::size_t index : far) {
      const std::optional<std::size_t> control =
          fleet_control_for(*report_, fleet_first_, index,
                            [this](const std::string& name) { return silenced(name); });
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
      if ((!pair_bad(pair) && !rechecked(i)) || fleet_first_.far(i) || silenced(pair.a) ||
          silenced(pair.b)) {
        continue;
      }
      bad.push_back({index(pair.a), index(pair.b)});
      which.push_back(i);
    }
    if (bad.empty()) return;
    // Packed by node: two rails of one pair share nodes, so they land in different rounds.
    const auto rounds = pack_round_indices(bad);
    attempt_number_ = 2;
    progress_state_.retesting = true;
    progress_state_.total += bad.size();
    progress_state_.steps += static_cast<int>(rounds.size());
    for (const auto& round : rounds) {
      Step step;
      for (std::size_t i : round) step.push_back(which[i]);
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
      if (silence_.silent(i)) progress_state_.silent.push_back(hosts_[i].name);
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
  SilenceTracker silence_;
  std::vector<int> not_passing_;  // by node: its pairs that did not pass, for the progress
  std::map<std::string, int> index_of_;
  std::optional<Deadline> sweep_deadline_;
  SweepReport* report_ = nullptr;
  int attempt_number_ = 1;
  FleetFirstAttempts fleet_first_;             // the fleet rule on each pair's first attempt
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

}  // namespace ibkit
