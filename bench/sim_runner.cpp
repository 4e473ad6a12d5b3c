#include "sim_runner.hpp"

#include <algorithm>

#include "sweep_sample.hpp"

namespace ibkit::sim {

int ModeledClock::step_of(const Deadline& deadline) {
  auto [at, added] = steps_.emplace(deadline.time_point(), static_cast<int>(steps_.size()) + 1);
  return at->second;
}

void ModeledClock::spent(int step, double seconds) {
  double& longest = step_seconds_[step];
  longest = std::max(longest, seconds);
}

double ModeledClock::seconds() const {
  double total = 0;
  for (const auto& [step, seconds] : step_seconds_) total += seconds;
  return total;
}

PairRunner SimRunner::runner() {
  return [this](const SweepHost& a, const SweepHost& b, int, const Deadline& deadline) {
    std::lock_guard lock(mutex_);
    return attempt(a, b, deadline);
  };
}

PairAttempt SimRunner::attempt(const SweepHost& a, const SweepHost& b, const Deadline& deadline) {
  const int step = clock_.step_of(deadline);
  const std::size_t ia = fabric_.index_of(a.name);
  const std::size_t ib = fabric_.index_of(b.name);
  if (!fabric_.answers(ia, step) || fabric_.frozen(ia)) {
    const bool frozen = fabric_.frozen(ia);
    clock_.spent(step, frozen ? times_.pair_deadline_s : times_.connect_timeout_s);
    PairAttempt attempt =
        frozen ? attempt_of(PairStatus::kTimedOut, "node " + a.name + " sent no result in time")
               : attempt_of(PairStatus::kUnreachable,
                            "node " + a.name + ": connect: connection timed out");
    attempt.a_silent = true;
    return attempt;
  }
  if (!fabric_.answers(ib, step) || fabric_.frozen(ib)) {
    const bool frozen = fabric_.frozen(ib);
    clock_.spent(step, frozen ? times_.pair_deadline_s : times_.connect_timeout_s);
    PairAttempt attempt = attempt_of(
        PairStatus::kFailed, "node " + a.name + ": peer " + b.name +
                                 (frozen ? " accepted and never answered" : " did not answer"));
    PairReport report;
    report.host = a.name;
    report.peer = b.name;
    attempt.report = std::move(report);
    attempt.b_silent = true;
    return attempt;
  }
  clock_.spent(step, times_.test_s);
  const std::uint64_t tried = attempts_[{ia, ib}]++;
  std::seed_seq seeds{seed_, static_cast<std::uint64_t>(ia), static_cast<std::uint64_t>(ib), tried};
  std::mt19937_64 random(seeds);
  const Measured measured = fabric_.measure(ia, ib, times_.noise, random);
  SweepPair pair = test::measured_pair(a.name, b.name, 1, measured.latency_us,
                                       measured.a_to_b_gbps + measured.b_to_a_gbps);
  test::set_each_way(pair, measured.a_to_b_gbps, measured.b_to_a_gbps);
  PairAttempt attempt;
  attempt.status = PairStatus::kPass;
  attempt.report = std::move(*pair.report);
  return attempt;
}

}  // namespace ibkit::sim
