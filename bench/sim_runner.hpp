#pragma once
// The fleet simulator's PairRunner: answers at once with what the simulated fabric measures, and
// keeps the time the test would have taken on a modeled clock, so a sweep of 1,000 hosts is
// judged in seconds of wall time and reports the minutes it would have taken.
#include <map>
#include <mutex>
#include <random>

#include "sim_fabric.hpp"
#include "sweep/coordinator.hpp"

namespace ibkit::sim {

struct SimTimes {
  double test_s = 2;             // one pair's tests
  double connect_timeout_s = 5;  // reaching a dead node
  double pair_deadline_s = 60;   // a frozen node is waited for this long
  double noise = 0.02;           // lognormal sigma of every figure
};

// The modeled time of a sweep: its steps run one after another, and a step takes as long as
// its slowest pair. The coordinator gives every pair of a step the same deadline, set when the
// step starts, so a call's deadline tells its step.
class ModeledClock {
 public:
  int step_of(const Deadline& deadline);
  void spent(int step, double seconds);
  double seconds() const;
  int steps() const { return static_cast<int>(step_seconds_.size()); }

 private:
  std::map<Deadline::Clock::time_point, int> steps_;
  std::map<int, double> step_seconds_;
};

// Guarded by one mutex: the coordinator calls it from a thread per pair.
class SimRunner {
 public:
  SimRunner(SimFabric& fabric, const SimTimes& times, std::uint64_t seed)
      : fabric_(fabric), times_(times), seed_(seed) {}

  PairRunner runner();
  const ModeledClock& clock() const { return clock_; }

 private:
  PairAttempt attempt(const SweepHost& a, const SweepHost& b, const Deadline& deadline);

  SimFabric& fabric_;
  SimTimes times_;
  // Each measurement's noise comes from the seed, the pair and its attempt, not from one
  // sequence drawn in whatever order the coordinator's threads call: a run repeats exactly.
  std::uint64_t seed_;
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> attempts_;
  ModeledClock clock_;
  std::mutex mutex_;
};

}  // namespace ibkit::sim
