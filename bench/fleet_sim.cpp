// Benchmark, not a test: the whole sweep (run_sweep: its schedule from the topology, the
// coordinator, retests with controls, the fleet rule, node and link blame, report.json) on a
// simulated fabric read from a saved topology (sim_fabric.hpp), with faults injected by seed,
// against the truth. Prints a line per scenario:
//   hosts H pattern P scenario S runs N rounds R steps T modeled_s S wall_s W
//   overhead_ms_per_round O peak_rss_mb M node_precision a node_recall b link_precision c
//   link_recall d exact E%
// modeled_s: the slowest run's modeled time (test_s a pair test, a dead node's connect timeout,
// a frozen node's pair deadline; each step as long as its slowest pair) plus its wall time;
// wall_s, the mean of the runs (the coordinator's own work: the runner answers at once);
// overhead_ms_per_round, wall time over the steps run (rounds and retests); exact, the runs that
// blamed exactly the faulty nodes and links, no more and no fewer.
//   ibkit_fleet_sim TOPOLOGY [--pattern P] [--runs N] [--noise SIGMA] [--test-seconds S]
//                   [--show-misses] [SCENARIO...]
// P: topo-blame (default), topo, or any --pattern (a FILE-less topo or topo-blame reads TOPOLOGY).
// SCENARIO: healthy node-0.5 node-0.2 node-dead node-frozen node-silent link-0.5 link-lossy
// mixed-10 (default: all).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "schedule/pattern.hpp"
#include "schema/sweep_report_json.hpp"
#include "sim_fabric.hpp"
#include "sim_runner.hpp"

using namespace ibkit;
using namespace ibkit::sim;

namespace {

const std::vector<std::string> kScenarios = {"healthy",   "node-0.5",    "node-0.2",
                                             "node-dead", "node-frozen", "node-silent",
                                             "link-0.5",  "link-lossy",  "mixed-10"};

struct Truth {
  std::set<std::string> nodes;
  std::set<std::string> links;
};

// Distinct random indices below `count`, one per call.
class Picker {
 public:
  Picker(std::size_t count, std::mt19937_64& random) : count_(count), random_(random) {}
  std::size_t next() {
    while (true) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, count_ - 1)(random_);
      if (taken_.insert(i).second) return i;
    }
  }

 private:
  std::size_t count_;
  std::mt19937_64& random_;
  std::set<std::size_t> taken_;
};

void fault_node(SimFabric& fabric, Truth& truth, std::size_t host, const std::string& kind) {
  NodeState& node = fabric.node(host);
  if (kind == "0.5" || kind == "0.2") {
    node.fault = NodeFault::kSlow;
    node.factor = std::stod(kind);
  } else if (kind == "dead") {
    node.fault = NodeFault::kDead;
  } else if (kind == "frozen") {
    node.fault = NodeFault::kFrozen;
  } else {
    node.fault = NodeFault::kSilentAfter;
    node.after_step = 1;
  }
  truth.nodes.insert(fabric.hosts()[host].name);
}

void fault_link(SimFabric& fabric, Truth& truth, std::size_t link, const std::string& kind) {
  LinkState& state = fabric.link(link);
  state.fault = kind == "lossy" ? LinkFault::kLossy : LinkFault::kSlow;
  state.factor = 0.5;
  truth.links.insert(fabric.link_name(link));
}

Truth inject(SimFabric& fabric, const std::string& scenario, std::mt19937_64& random) {
  fabric.clear_faults();
  Truth truth;
  Picker hosts(fabric.hosts().size(), random);
  Picker links(fabric.links(), random);
  if (scenario.rfind("node-", 0) == 0) fault_node(fabric, truth, hosts.next(), scenario.substr(5));
  if (scenario.rfind("link-", 0) == 0) fault_link(fabric, truth, links.next(), scenario.substr(5));
  if (scenario == "mixed-10") {
    for (const char* kind : {"0.5", "0.2", "dead", "frozen", "silent"})
      fault_node(fabric, truth, hosts.next(), kind);
    for (const char* kind : {"0.5", "0.5", "0.5", "lossy", "lossy"})
      fault_link(fabric, truth, links.next(), kind);
  }
  return truth;
}

struct Score {
  int runs = 0;
  int exact = 0;
  std::size_t node_true = 0, node_blamed = 0, node_truth = 0;
  std::size_t link_true = 0, link_blamed = 0, link_truth = 0;
  int rounds = 0;
  int most_steps = 0;
  double most_modeled_s = 0;
  double wall_s = 0;
  double overhead_ms = 0;

  void add(const SweepReport& report, const Truth& truth) {
    ++runs;
    std::size_t nodes_right = 0;
    for (const auto& blame : report.blamed) nodes_right += truth.nodes.count(blame.node);
    std::size_t entries_right = 0;
    std::set<std::string> found;
    for (const auto& blame : report.blamed_links) {
      bool right = false;
      for (const auto& link : truth.links) {
        if (blame.link.find(link) == std::string::npos) continue;
        right = true;
        found.insert(link);
      }
      entries_right += right ? 1 : 0;
    }
    node_true += nodes_right;
    node_blamed += report.blamed.size();
    node_truth += truth.nodes.size();
    link_true += found.size();
    link_blamed += report.blamed_links.size();
    link_truth += truth.links.size();
    const bool right =
        nodes_right == truth.nodes.size() && report.blamed.size() == truth.nodes.size() &&
        entries_right == report.blamed_links.size() && found.size() == truth.links.size() &&
        report.blamed_links.size() == truth.links.size();
    exact += right ? 1 : 0;
  }
};

void show_miss(int run, const SweepReport& report, const Truth& truth) {
  std::printf("  run %d missed. truth:", run);
  for (const auto& node : truth.nodes) std::printf(" %s", node.c_str());
  for (const auto& link : truth.links) std::printf(" [%s]", link.c_str());
  std::printf("\n  blamed:\n");
  for (const auto& blame : report.blamed)
    std::printf("    %s: %s\n", blame.node.c_str(), blame.reason.c_str());
  for (const auto& blame : report.blamed_links)
    std::printf("    [%s]: %s\n", blame.link.c_str(), blame.reason.c_str());
}

double ratio(std::size_t part, std::size_t whole) {
  return whole == 0 ? 1.0 : static_cast<double>(part) / static_cast<double>(whole);
}

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;
}

struct Options {
  std::string topology;
  std::string pattern = "topo-blame";
  int runs = 10;
  bool show_misses = false;  // print what a run that was not exact blamed, and the truth
  SimTimes times;
  std::vector<std::string> scenarios;
};

[[noreturn]] void usage(const char* program, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s TOPOLOGY [--pattern P] [--runs N] [--noise SIGMA] "
               "[--test-seconds S] [SCENARIO...]\n",
               program, why.c_str(), program);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--pattern" && has_value) {
      options.pattern = argv[++i];
    } else if (arg == "--runs" && has_value) {
      options.runs = std::atoi(argv[++i]);
    } else if (arg == "--noise" && has_value) {
      options.times.noise = std::atof(argv[++i]);
    } else if (arg == "--test-seconds" && has_value) {
      options.times.test_s = std::atof(argv[++i]);
    } else if (arg == "--show-misses") {
      options.show_misses = true;
    } else if (arg.rfind("--", 0) == 0) {
      usage(argv[0], "unknown option " + arg);
    } else if (options.topology.empty()) {
      options.topology = arg;
    } else {
      bool known = false;
      for (const auto& scenario : kScenarios) known = known || scenario == arg;
      if (!known) usage(argv[0], "unknown scenario " + arg);
      options.scenarios.push_back(arg);
    }
  }
  if (options.topology.empty()) usage(argv[0], "no TOPOLOGY");
  if (options.runs < 1) usage(argv[0], "--runs must be 1 or more");
  if (options.scenarios.empty()) options.scenarios = kScenarios;
  if (options.pattern == "topo" || options.pattern == "topo-blame")
    options.pattern += ":" + options.topology;
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  try {
    SimFabric fabric(options.topology);
    PatternTopology topology;
    auto schedule = schedule_for_pattern(options.pattern, fabric.hosts(), 1, &topology);
    if (!schedule) usage(argv[0], schedule.error().message);
    const std::string pattern_word = options.pattern.substr(0, options.pattern.find(':'));
    const auto output = std::filesystem::temp_directory_path() /
                        ("ibkit-fleet-sim-" + std::to_string(getpid()) + ".json");
    for (const auto& scenario : options.scenarios) {
      Score score;
      for (int run = 0; run < options.runs; ++run) {
        std::mt19937_64 random(static_cast<std::uint64_t>(run) * 7919 + 17);
        const Truth truth = inject(fabric, scenario, random);
        SimRunner runner(fabric, options.times, random());
        SweepSettings settings;
        settings.pattern = pattern_word;
        settings.pair_deadline_s = options.times.pair_deadline_s;
        settings.connect_timeout_s = options.times.connect_timeout_s;
        settings.routes = topology.routes;
        const auto start = std::chrono::steady_clock::now();
        const SweepReport report =
            run_sweep(fabric.hosts(), *schedule, settings, runner.runner(), {});
        std::ofstream(output) << render_sweep_json(report);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int exact_before = score.exact;
        score.add(report, truth);
        if (options.show_misses && score.exact == exact_before) show_miss(run, report, truth);
        score.rounds = report.rounds;
        score.most_steps = std::max(score.most_steps, runner.clock().steps());
        score.most_modeled_s = std::max(score.most_modeled_s, runner.clock().seconds() + wall);
        score.wall_s += wall / options.runs;
        score.overhead_ms += 1000 * wall / std::max(1, runner.clock().steps()) / options.runs;
      }
      std::printf(
          "hosts %zu pattern %s scenario %s runs %d rounds %d steps %d modeled_s %.1f wall_s %.2f "
          "overhead_ms_per_round %.1f peak_rss_mb %.0f node_precision %.3f node_recall %.3f "
          "link_precision %.3f link_recall %.3f exact %.0f%%\n",
          fabric.hosts().size(), pattern_word.c_str(), scenario.c_str(), score.runs, score.rounds,
          score.most_steps, score.most_modeled_s, score.wall_s, score.overhead_ms, peak_rss_mb(),
          ratio(score.node_true, score.node_blamed), ratio(score.node_true, score.node_truth),
          ratio(score.link_true, score.link_blamed), ratio(score.link_true, score.link_truth),
          100.0 * score.exact / score.runs);
      std::fflush(stdout);
    }
    std::filesystem::remove(output);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return 1;
  }
  return 0;
}
