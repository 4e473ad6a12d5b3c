// The example sweeps of tests/fixtures/reports/ (generate.py), judged by the agent's own sweep:
// run_sweep over an all-pairs schedule with a runner that, instead of driving nodes, hands each
// attempt the pair report the script gives for it, judged with judge_drive as the network
// runner's are. The fleet rule, the retests and the blame are the coordinator's. Only what a
// real sweep would have measured is taken from the script: the reports, each attempt's seconds
// and the sweep's wall time, the time stamp, the coordinator's name and the agent's version.
//
//   ibkit_example_sweep SCRIPT.json   writes the ibkit.sweep/3 report to stdout
//
// SCRIPT: {"nodes": [...], "coordinator", "generated_at", "agent_version", "wall_seconds",
//   "thresholds": {"max_latency_us", "min_bandwidth_gbps"},
//   "pairs": [{"a", "b", "attempts": [{"seconds", "report": ibkit.pair/1}, ...]}, ...]}
// A pair tried more often than it has attempts gets its last one again.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedule/schedule.hpp"
#include "schema/pair_report_json.hpp"
#include "schema/sweep_report_json.hpp"
#include "sweep/coordinator.hpp"
#include "sweep/pair_attempt.hpp"

namespace {

using ibkit::PairReport;
using nlohmann::json;

struct Attempt {
  double seconds = 0;
  PairReport report;
};

using PairKey = std::pair<std::string, std::string>;

PairKey key_of(const std::string& a, const std::string& b) {
  return a < b ? PairKey{a, b} : PairKey{b, a};
}

struct Script {
  json document;
  std::map<PairKey, std::vector<Attempt>> attempts;
};

Script read_script(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Script script{json::parse(in), {}};
  for (const auto& pair : script.document.at("pairs")) {
    auto& attempts = script.attempts[key_of(pair.at("a"), pair.at("b"))];
    for (const auto& attempt : pair.at("attempts")) {
      auto report = ibkit::pair_report_from_json(attempt.at("report"));
      if (!report.ok()) throw std::runtime_error(report.error().message);
      attempts.push_back({attempt.at("seconds").get<double>(), std::move(*report)});
    }
    if (attempts.empty()) throw std::runtime_error("a pair without attempts");
  }
  return script;
}

ibkit::SweepReport judge(const Script& script) {
  std::vector<ibkit::SweepHost> hosts;
  for (const auto& node : script.document.at("nodes"))
    hosts.push_back({node.get<std::string>(), "192.0.2.1", 18515});
  ibkit::Thresholds thresholds;
  const auto& limits = script.document.at("thresholds");
  thresholds.max_latency_us = limits.at("max_latency_us").get<double>();
  thresholds.min_bandwidth_gbps = limits.at("min_bandwidth_gbps").get<double>();
  ibkit::SweepSettings settings;
  settings.drive.tests = {"lat", "bw"};
  settings.fleet = thresholds.fleet;

  std::mutex mutex;
  std::map<PairKey, std::size_t> tried;
  const ibkit::PairRunner runner = [&](const ibkit::SweepHost& a, const ibkit::SweepHost& b, int,
                                       const ibkit::Deadline&) {
    const auto& attempts = script.attempts.at(key_of(a.name, b.name));
    std::size_t index = 0;
    {
      std::lock_guard lock(mutex);
      index = std::min(tried[key_of(a.name, b.name)]++, attempts.size() - 1);
    }
    ibkit::DriveAttempt drive;
    drive.stage = ibkit::DriveStage::kFinished;
    drive.report = attempts[index].report;
    drive.report->host = a.name;
    drive.report->peer = b.name;
    return ibkit::judge_drive(a, b, std::move(drive), thresholds);
  };
  auto report = ibkit::run_sweep(hosts, ibkit::all_pairs_schedule(static_cast<int>(hosts.size())),
                                 settings, runner, [](const ibkit::SweepProgress&) {});
  // What the clock measured: the script's figures, so the file changes only with the agent.
  report.generated_at = script.document.at("generated_at");
  report.coordinator = script.document.at("coordinator");
  report.agent_version = script.document.at("agent_version");
  report.wall_seconds = script.document.at("wall_seconds");
  for (auto& pair : report.pairs) {
    const auto& attempts = script.attempts.at(key_of(pair.a, pair.b));
    const auto last = static_cast<std::size_t>(std::max(pair.attempts, 1)) - 1;
    pair.seconds = attempts[std::min(last, attempts.size() - 1)].seconds;
  }
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ibkit_example_sweep SCRIPT.json\n";
    return 2;
  }
  try {
    std::cout << ibkit::render_sweep_json(judge(read_script(argv[1])));
  } catch (const std::exception& error) {
    std::cerr << "ibkit_example_sweep: " << argv[1] << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
