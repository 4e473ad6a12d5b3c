#include "sweep_sample.hpp"

#include "model/check_report.hpp"
#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"
#include "schedule/schedule.hpp"

namespace ibkit::test {
namespace {

VerbsMeasurement verbs_of(const std::string& test) {
  VerbsMeasurement verbs;
  verbs.test = test;
  verbs.op = test == "lat" ? "send" : "write";
  verbs.local_device = "mlx5_0 port 1";
  verbs.remote_device = "mlx5_0 port 1";
  return verbs;
}

SizeMeasurement latency_size(std::uint64_t bytes, double typical_us) {
  SizeMeasurement size;
  size.size = bytes;
  size.iterations = 1000;
  size.seconds = 0.01;
  size.latency = LatencyStats{typical_us * 0.9, typical_us,       typical_us * 1.05, 0.1,
                              typical_us * 1.5, typical_us * 1.8, typical_us * 3};
  return size;
}

SizeMeasurement bandwidth_size(std::uint64_t bytes, double gbps) {
  SizeMeasurement size;
  size.size = bytes;
  size.iterations = 5000;
  size.seconds = 0.5;
  size.bandwidth = Throughput{gbps * 119.2, gbps, gbps / static_cast<double>(bytes)};
  return size;
}

}  // namespace

SweepPair measured_pair(const std::string& a, const std::string& b, int round, double latency_us,
                        double gbps) {
  auto lat = verbs_of("lat");
  // The larger size first: the matrices must pick by size, not by position.
  lat.sizes = {latency_size(4096, latency_us * 10), latency_size(2, latency_us)};
  auto bw = verbs_of("bw");
  bw.sizes = {bandwidth_size(65536, gbps / 2), bandwidth_size(1 << 20, gbps)};
  PairReport report;
  report.host = a;
  report.peer = b;
  report.generated_at = "2026-11-22T08:00:00Z";
  report.config_source = "/etc/ibkit/ibkit.toml";
  report.outcomes = {{"lat", lat, std::nullopt, ""}, {"bw", bw, std::nullopt, ""}};
  report.results = {
      {"pair.latency", "lat send 2 B", Status::kPass, "1.5 us typical", "no threshold set", ""}};
  SweepPair pair;
  pair.a = a;
  pair.b = b;
  pair.round = round;
  pair.status = PairStatus::kPass;
  pair.attempts = 1;
  pair.seconds = 2.5;
  pair.report = report;
  pair.rules.fleet = true;
  return pair;
}

void set_each_way(SweepPair& pair, double a_to_b, double b_to_a) {
  auto& verbs = *pair.report->outcomes[1].verbs;
  verbs.bidir = true;
  SizeMeasurement& size = verbs.sizes[1];
  size.to_peer = Throughput{0, a_to_b, 0};
  size.from_peer = Throughput{0, b_to_a, 0};
  size.bandwidth = Throughput{0, a_to_b + b_to_a, 0};
  pair.status = PairStatus::kPass;
  pair.rules = {};
  pair.reason.clear();
}

SweepReport all_pairs_sweep(int n, double latency_us, double gbps) {
  auto name = [](std::size_t i) { return "n" + std::to_string(i); };
  SweepReport report;
  report.pattern = "all-pairs";
  report.tests = {"lat", "bw"};
  for (int i = 0; i < n; ++i) report.nodes.push_back(name(static_cast<std::size_t>(i)));
  const Schedule schedule = all_pairs_schedule(n);
  report.rounds = static_cast<int>(schedule.size());
  for (std::size_t round = 0; round < schedule.size(); ++round) {
    for (const auto& scheduled : schedule[round]) {
      report.pairs.push_back(measured_pair(name(scheduled.a), name(scheduled.b),
                                           static_cast<int>(round) + 1, latency_us, gbps));
    }
  }
  return report;
}

SweepReport sample_sweep() {
  SweepReport report;
  report.generated_at = "2026-11-22T08:00:00Z";
  report.coordinator = "lab1";
  report.pattern = "all-pairs";
  report.tests = {"lat", "bw"};
  report.nodes = {"lab1", "lab2", "lab3", kHostileNode};
  report.rounds = 3;
  report.wall_seconds = 9.5;

  auto failed = measured_pair("lab3", kHostileNode, 1, 2.0, 80);
  failed.status = PairStatus::kFailed;
  failed.reason = "bw: no completion for 10 s <peer gone>";
  failed.attempts = 2;
  failed.report->outcomes[1].verbs->sizes.clear();
  failed.report->outcomes[1].error = "no completion for 10 s";
  failed.rules = {};

  auto slow = measured_pair("lab1", "lab3", 2, 3.0, 40);
  slow.status = PairStatus::kSlow;
  slow.reason = "bandwidth 40 Gb/s below 80 Gb/s";
  slow.rules = {true, true, false};

  SweepPair unreachable{"lab2",
                        kHostileNode,
                        0,
                        2,
                        PairStatus::kUnreachable,
                        "connect: no route to host",
                        2,
                        5.0,
                        std::nullopt,
                        {},
                        {},
                        {}};
  SweepPair timed_out{
      "lab1",       kHostileNode, 0,  3, PairStatus::kTimedOut, "no result within 30 s", 2, 30.0,
      std::nullopt, {},           {}, {}};
  SweepPair not_run{
      "lab2",       "lab3", 0,  3, PairStatus::kNotRun, "sweep deadline passed", 0, 0.0,
      std::nullopt, {},     {}, {}};

  report.pairs = {
      measured_pair("lab1", "lab2", 1, 1.5, 90), failed, slow, unreachable, timed_out, not_run};
  report.blamed = {{kHostileNode, "all 3 pairs failed: unreachable, timed_out, failed"}};
  report.fleet = FleetJudgment{
      {}, {{"bw write 1048576 B", 0, false, 90, 3}, {"lat send 2 B", 0, true, 1.5, 3, 1.35}}};
  return report;
}

CheckReport sample_check(const std::string& host, bool failing) {
  CheckReport report{host, "2026-11-22T07:59:00Z", "/etc/ibkit/ibkit.toml", {}};
  report.results.push_back(
      {"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""});
  if (failing) {
    report.results.push_back({"memlock.limit", "node", Status::kFail, "64 KiB", "unlimited",
                              "raise memlock in /etc/security/limits.d"});
  }
  return report;
}

std::string pairs_not_passed(const SweepReport& report) {
  std::string out;
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kPass) out += pair.a + "-" + pair.b + ": " + pair.reason + "\n";
  }
  return out;
}

}  // namespace ibkit::test
