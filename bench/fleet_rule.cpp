// Benchmark, not a test: how often the sweep's fleet rule flags a healthy fleet, and how often it
// gets a bad node or a bad link exactly right, over synthetic sweeps at 3 to 256 nodes
// (docs/verdicts.md, "False positives, measured"), with the line drawn from the fleet's spread
// and, on the same sweeps, with today's fixed factors (pinned) beside it. Every pair's latency
// and each way of its bandwidth (bidirectional, the sweep's default) get their own noise, drawn
// anew for every measurement. "single" judges the first attempts once (judge_fleet and blame);
// "sweep" runs run_sweep itself, with retests and controls, with a runner that returns the
// figures at once.
//   ibkit_fleet_bench single|sweep [node|link FACTOR] [NOISE] [NODES...]
// FACTOR: how many times slower (latency up, bandwidth down) the fault is (2: half speed);
// NOISE: a part of a noise model's name ("uniform", "0.2", "0.02", "host") to run only those;
// NODES: the fleet sizes (3 4 16 64 by default).
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "model/sweep_report.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "schedule/schedule.hpp"
#include "sweep/coordinator.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

struct Noise {
  const char* name;
  std::function<double(std::mt19937_64&)> draw;  // a factor around 1
};

double uniform(std::mt19937_64& random, double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(random);
}

double gauss(std::mt19937_64& random) { return std::normal_distribution<double>(0, 1)(random); }

const std::vector<Noise>& noises() {
  static const std::vector<Noise> all = {
      // Quiet fabrics: healthy InfiniBand pairs agree within a few percent.
      {"lognormal 0.02", [](std::mt19937_64& r) { return std::exp(0.02 * gauss(r)); }},
      {"lognormal 0.05", [](std::mt19937_64& r) { return std::exp(0.05 * gauss(r)); }},
      {"lognormal 0.10", [](std::mt19937_64& r) { return std::exp(0.10 * gauss(r)); }},
      {"uniform +-40%", [](std::mt19937_64& r) { return uniform(r, 0.6, 1.4); }},
      {"lognormal 0.2", [](std::mt19937_64& r) { return std::exp(0.2 * gauss(r)); }},
      {"lognormal 0.3", [](std::mt19937_64& r) { return std::exp(0.3 * gauss(r)); }},
      // Like TCP between the host tier's namespaces: a wide spread, some pairs 3x fast (a quiet
      // moment), some at half speed.
      {"host-tier-like", [](std::mt19937_64& r) {
         double factor = std::exp(0.22 * gauss(r));
         if (uniform(r, 0, 1) < 0.03) factor *= 3;
         if (uniform(r, 0, 1) < 0.01) factor *= 0.45;
         return factor;
       }}};
  return all;
}

struct Fault {
  std::string kind;  // "", "node" (n1) or "link" (n1-n2)
  double slowdown = 1;
  bool hits(const std::string& a, const std::string& b) const {
    if (kind == "node") return a == "n1" || b == "n1";
    if (kind == "link") return (a == "n1" && b == "n2") || (a == "n2" && b == "n1");
    return false;
  }
};

// A pair measured as a sweep measures it by default: latency, and bandwidth both ways at once,
// each way its own figure and its own noise.
SweepPair measured(const std::string& a, const std::string& b, int round, const Noise& noise,
                   const Fault& fault, std::mt19937_64& random) {
  const double k = fault.hits(a, b) ? fault.slowdown : 1;
  const double latency = 1.5 / noise.draw(random) * k;
  const double there = 45 * noise.draw(random) / k;
  const double back = 45 * noise.draw(random) / k;
  SweepPair pair = test::measured_pair(a, b, round, latency, there + back);
  test::set_each_way(pair, there, back);
  return pair;
}

// Today's rule: the fixed factors, whatever the fleet's spread.
FleetFactors fixed_factors() {
  FleetFactors factors;
  factors.latency_pinned = true;
  factors.bandwidth_pinned = true;
  return factors;
}

SweepReport single_pass(int n, const Noise& noise, const Fault& fault, unsigned seed,
                        const FleetFactors& factors) {
  std::mt19937_64 random(seed);
  SweepReport report;
  for (int i = 0; i < n; ++i) report.nodes.push_back("n" + std::to_string(i));
  const Schedule schedule = all_pairs_schedule(n);
  for (std::size_t round = 0; round < schedule.size(); ++round) {
    for (const auto& pair : schedule[round]) {
      SweepPair entry = measured(report.nodes[static_cast<std::size_t>(pair.a)],
                                 report.nodes[static_cast<std::size_t>(pair.b)],
                                 static_cast<int>(round) + 1, noise, fault, random);
      entry.rules = {};
      report.pairs.push_back(std::move(entry));
    }
  }
  judge_fleet(report, factors);
  blame_nodes(report);
  return report;
}

SweepReport whole_sweep(int n, const Noise& noise, const Fault& fault, unsigned seed,
                        const FleetFactors& factors) {
  std::vector<SweepHost> hosts;
  for (int i = 0; i < n; ++i) hosts.push_back({"n" + std::to_string(i), "10.9.0.1", 1});
  std::mutex mutex;
  std::mt19937_64 random(seed);
  PairRunner runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    PairAttempt attempt;
    attempt.status = PairStatus::kPass;
    std::lock_guard lock(mutex);
    if (auto report = measured(a.name, b.name, 1, noise, fault, random).report) {
      attempt.report = std::move(*report);
    }
    return attempt;
  };
  SweepSettings settings;
  settings.fleet = factors;
  return run_sweep(hosts, all_pairs_schedule(n), settings, runner, {});
}

// Healthy: whether any pair did not pass. With a fault: whether the sweep got it exactly right.
bool counted(const SweepReport& report, const Fault& fault) {
  bool any_bad = false;
  bool right = true;
  for (const auto& pair : report.pairs) {
    const bool bad = pair.status != PairStatus::kPass;
    any_bad |= bad;
    right &= bad == fault.hits(pair.a, pair.b);
  }
  if (fault.kind.empty()) return any_bad;
  if (fault.kind == "node")
    return right && report.blamed.size() == 1 && report.blamed[0].node == "n1";
  return right && report.blamed.empty();
}

}  // namespace

// Sweeps to run of `n` nodes: enough at few nodes to tell 99% from 100%, fewer where each
// sweep is large.
int trials_of(const std::string& mode, bool fault, int n) {
  if (n >= 256) return mode == "single" ? 20 : 2;
  if (n >= 64) return mode == "single" ? (fault ? 100 : 200) : (fault ? 20 : 40);
  if (n >= 16) return mode == "single" ? 1000 : (fault ? 100 : 200);
  return mode == "single" ? 1000 : (fault ? 300 : 1000);
}

struct Counts {
  std::atomic<int> hits{0};
  std::atomic<int> blamed{0};
};

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "single" && mode != "sweep") {
    std::fprintf(stderr, "usage: %s single|sweep [node|link FACTOR] [NOISE] [NODES...]\n", argv[0]);
    return 2;
  }
  Fault fault;
  int next_argument = 2;
  if (argc > 3 && (std::string(argv[2]) == "node" || std::string(argv[2]) == "link")) {
    fault = {argv[2], std::atof(argv[3])};
    if (!(fault.slowdown > 1)) {
      std::fprintf(stderr, "%s: FACTOR \"%s\" is not a number above 1\n", argv[0], argv[3]);
      return 2;
    }
    next_argument = 4;
  }
  const std::string only = argc > next_argument ? argv[next_argument] : "";
  std::vector<int> sizes;
  for (int i = next_argument + 1; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    if (n < 3 || n > 4096) {
      std::fprintf(stderr, "%s: NODES \"%s\" is not 3..4096\n", argv[0], argv[i]);
      return 2;
    }
    sizes.push_back(n);
  }
  if (sizes.empty()) sizes = {3, 4, 16, 64};
  for (const auto& noise : noises()) {
    if (!only.empty() && std::string(noise.name).find(only) == std::string::npos) continue;
    for (int n : sizes) {
      const int trials = trials_of(mode, !fault.kind.empty(), n);
      std::atomic<int> next{0};
      Counts spread;
      Counts fixed;
      // Sweeps in parallel: run_sweep mostly waits on its step timer, not on the CPU.
      auto work = [&] {
        for (int trial = next++; trial < trials; trial = next++) {
          const auto seed = static_cast<unsigned>(trial * 7919 + n);
          for (auto* counts : {&spread, &fixed}) {
            const FleetFactors factors = counts == &fixed ? fixed_factors() : FleetFactors{};
            const SweepReport report = mode == "single"
                                           ? single_pass(n, noise, fault, seed, factors)
                                           : whole_sweep(n, noise, fault, seed, factors);
            counts->hits += counted(report, fault) ? 1 : 0;
            counts->blamed += report.blamed.empty() ? 0 : 1;
          }
        }
      };
      std::vector<std::thread> workers;
      const int count = mode == "single" ? 2 : (n >= 64 ? 4 : 24);
      for (int i = 0; i < count; ++i) workers.emplace_back(work);
      for (auto& worker : workers) worker.join();
      auto percent = [&](const Counts& counts) { return 100.0 * counts.hits.load() / trials; };
      std::printf(
          "%-15s %3d nodes, %s, %s: spread line %d (%.2f%%), fixed %d (%.2f%%) of %d; "
          "blamed a node %d, %d\n",
          noise.name, n, mode == "single" ? "one pass  " : "whole sweep",
          fault.kind.empty() ? "healthy sweeps flagged" : "sweeps exactly right",
          spread.hits.load(), percent(spread), fixed.hits.load(), percent(fixed), trials,
          spread.blamed.load(), fixed.blamed.load());
      std::fflush(stdout);
    }
  }
  return 0;
}
