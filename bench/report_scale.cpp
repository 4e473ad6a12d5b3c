// Benchmark input, not a test: a synthetic all-pairs sweep of N nodes as a real sweep leaves it
// (every pair carries what it measured), for bench/report-scale.sh and the HTML screenshots.
// Node n3 is 10x slow, the link n1-n2 fails, n5's last pairs did not run; 64 nodes have a check
// report of their own, n4's failing.
//   ibkit_report_bench NODES DIR   writes DIR/sweep/report.json and DIR/checks/NODE.json
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "model/sweep_report.hpp"
#include "report/check_json.hpp"
#include "report/sweep_files.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "schedule/schedule.hpp"
#include "sweep_sample.hpp"
#include "util/text.hpp"

namespace {

using namespace ibkit;

constexpr int kCheckedNodes = 64;

SweepPair synthetic_pair(const std::string& a, const std::string& b, int round,
                         std::mt19937_64& random) {
  std::lognormal_distribution<double> noise(0, 0.03);
  const bool slow_node = a == "n3" || b == "n3";
  const double latency = 1.6 * noise(random) * (slow_node ? 10 : 1);
  const double gbps = 95 / noise(random) / (slow_node ? 10 : 1);
  SweepPair pair = test::measured_pair(a, b, round, latency, gbps);
  pair.seconds = 2.4 * noise(random);
  pair.rules = {};
  pair.report->results.push_back({"pair.bandwidth", "bw write 1048576 B", Status::kPass,
                                  format_number(gbps, 1) + " Gb/s", "no threshold set", ""});
  pair.report->results.push_back({"pair.ends", a + " mlx5_0/1 - " + b + " mlx5_0/1", Status::kPass,
                                  "MTU 4096 both", "the same MTU", ""});
  if ((a == "n1" && b == "n2") || (a == "n2" && b == "n1")) {
    pair.status = PairStatus::kFailed;
    pair.reason = "bw: no completion for 10 s: transport retry counter exceeded";
    pair.report->outcomes[1].verbs->sizes.clear();
    pair.report->outcomes[1].error = "no completion for 10 s";
    pair.attempts = 2;
  }
  return pair;
}

SweepReport synthetic_sweep(int n) {
  std::mt19937_64 random(1);
  SweepReport report;
  report.generated_at = "2026-11-24T03:00:00Z";
  report.coordinator = "n0";
  report.pattern = "all-pairs";
  report.tests = {"lat", "bw"};
  for (int i = 0; i < n; ++i) report.nodes.push_back("n" + std::to_string(i));
  const Schedule schedule = all_pairs_schedule(n);
  report.rounds = static_cast<int>(schedule.size());
  for (std::size_t round = 0; round < schedule.size(); ++round) {
    for (const auto& scheduled : schedule[round]) {
      const auto& a = report.nodes[static_cast<std::size_t>(scheduled.a)];
      const auto& b = report.nodes[static_cast<std::size_t>(scheduled.b)];
      if ((a == "n5" || b == "n5") && round + 3 >= schedule.size()) {
        report.pairs.push_back({a,
                                b,
                                0,
                                static_cast<int>(round) + 1,
                                PairStatus::kNotRun,
                                "sweep deadline passed",
                                0,
                                0.0,
                                std::nullopt,
                                {},
                                {},
                                {}});
        continue;
      }
      report.pairs.push_back(synthetic_pair(a, b, static_cast<int>(round) + 1, random));
    }
  }
  report.wall_seconds = 2.5 * report.rounds;
  judge_fleet(report, {});
  blame_nodes(report);
  return report;
}

int write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (out.flush()) return 0;
  std::fprintf(stderr, "ibkit_report_bench: cannot write %s\n", path.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ibkit_report_bench NODES DIR\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  if (n < 2 || n > static_cast<int>(kMaxSweepNodes)) {
    std::fprintf(stderr, "ibkit_report_bench: NODES must be 2..%zu\n", kMaxSweepNodes);
    return 2;
  }
  const std::filesystem::path dir = argv[2];
  auto written = write_sweep_reports(synthetic_sweep(n), (dir / "sweep").string(), {"json"});
  if (!written) {
    std::fprintf(stderr, "ibkit_report_bench: %s\n", written.error().message.c_str());
    return 1;
  }
  std::filesystem::create_directories(dir / "checks");
  for (int i = 0; i < std::min(n, kCheckedNodes); ++i) {
    const std::string host = "n" + std::to_string(i);
    if (write_text(dir / "checks" / (host + ".json"),
                   render_check_json(test::sample_check(host, host == "n4"))) != 0) {
      return 1;
    }
  }
  return 0;
}
