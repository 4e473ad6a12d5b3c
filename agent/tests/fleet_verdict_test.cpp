#include "rules/fleet_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "model/sweep_report.hpp"
#include "rules/blame.hpp"
#include "schedule/schedule.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

namespace {

// The figures of a healthy pair before noise: 1.5 us at 2 B, 90 Gb/s at 1 MiB.
constexpr double kLatencyUs = 1.5;
constexpr double kGbps = 90;

std::string node_name(int i) { return "n" + std::to_string(i); }

// Every pair of n nodes in the rounds all-pairs gives them, each measured at the healthy
// figures; tests then change the figures.
SweepReport fleet_of(int n) { return test::all_pairs_sweep(n, kLatencyUs, kGbps); }

// Sets a pair's judged figures: the typical latency of its 2 B size (its minimum 0.9x that unless
// given), the bandwidth of its 1 MiB size. Its status, rules and reason go back to an unjudged
// pass.
void set_figures(SweepPair& pair, double latency_us, double gbps,
                 std::optional<double> min_latency_us = std::nullopt) {
  pair.report->outcomes[0].verbs->sizes[1].latency->typical_us = latency_us;
  pair.report->outcomes[0].verbs->sizes[1].latency->min_us =
      min_latency_us.value_or(latency_us * 0.9);
  pair.report->outcomes[1].verbs->sizes[1].bandwidth->gbps = gbps;
  pair.status = PairStatus::kPass;
  pair.rules = {};
  pair.reason.clear();
}

bool involves(const SweepPair& pair, const std::string& node) {
  return pair.a == node || pair.b == node;
}

bool links(const SweepPair& pair, const std::string& x, const std::string& y) {
  return (pair.a == x && pair.b == y) || (pair.a == y && pair.b == x);
}

// Every figure times a factor drawn uniformly from 1 - spread .. 1 + spread.
void add_noise(SweepReport& report, std::mt19937& random, double spread) {
  std::uniform_real_distribution<double> factor(1 - spread, 1 + spread);
  for (auto& pair : report.pairs)
    set_figures(pair, kLatencyUs * factor(random), kGbps * factor(random));
}

// A node or link `slowdown` times slower: latency up and bandwidth down by that factor.
void slow_down(SweepPair& pair, double slowdown) {
  const auto& lat = pair.report->outcomes[0].verbs->sizes[1].latency->typical_us;
  const auto& bw = pair.report->outcomes[1].verbs->sizes[1].bandwidth->gbps;
  set_figures(pair, lat * slowdown, bw / slowdown);
}

std::size_t count_slow(const SweepReport& report) {
  return static_cast<std::size_t>(
      std::count_if(report.pairs.begin(), report.pairs.end(),
                    [](const SweepPair& pair) { return pair.status == PairStatus::kSlow; }));
}

std::string slow_pairs(const SweepReport& report) {
  std::ostringstream out;
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kSlow) continue;
    out << pair.a << "-" << pair.b << ": " << pair.reason << "\n";
  }
  return out.str();
}

// The fleet rule with the default factors, then blame, as the coordinator runs them.
void judge(SweepReport& report, const FleetFactors& factors = {}) {
  judge_fleet(report, factors);
  blame_nodes(report);
}

}  // namespace

TEST_CASE("fleet: at 3 nodes, a bad node is blamed and its pairs are slow by the fleet rule",
          "[rules]") {
  SweepReport report = fleet_of(3);
  for (auto& pair : report.pairs) {
    if (involves(pair, "n2")) slow_down(pair, 10);
  }
  judge(report);
  INFO(slow_pairs(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n2");
  for (const auto& pair : report.pairs) {
    if (!involves(pair, "n2")) {
      CHECK(pair.status == PairStatus::kPass);
      CHECK(pair_rules_name(pair.rules) == "fleet");
      continue;
    }
    CHECK(pair.status == PairStatus::kSlow);
    CHECK(pair_rules_name(pair.rules) == "fleet");
    // Each figure named, with the fleet's typical one and the ratio.
    CHECK_THAT(
        pair.reason,
        Catch::Contains(
            "fleet: lat send 2 B: 15 us is 10x the fleet's "
            "typical 1.5 us (slow above 3x: too few pairs to know the fleet's spread (3 pairs))"));
    CHECK_THAT(pair.reason, Catch::Contains("bw write 1048576 B: 9 Gb/s is 0.1x the fleet's "
                                            "typical 90 Gb/s (slow below 0.33x: too few ways to "
                                            "know the fleet's spread (3 ways))"));
    CHECK_THAT(pair.reason, Catch::StartsWith("blamed on n2: fleet: "));
  }
  REQUIRE(report.fleet);
  REQUIRE(report.fleet->references.size() == 3);
  CHECK(report.fleet->references[1].subject == "lat send 2 B");
  CHECK(report.fleet->references[2].subject == "lat send 2 B p99");
  CHECK(report.fleet->references[1].typical == Approx(kLatencyUs));
  CHECK(report.fleet->references[1].nodes == 3);
  CHECK(sweep_failed(report));
}

TEST_CASE("fleet: at 3 nodes, a bad link is slow and nobody is blamed", "[rules]") {
  SweepReport report = fleet_of(3);
  for (auto& pair : report.pairs) {
    if (links(pair, "n0", "n1")) slow_down(pair, 5);
  }
  judge(report);
  INFO(slow_pairs(report));
  CHECK(report.blamed.empty());
  CHECK(count_slow(report) == 1);
  for (const auto& pair : report.pairs) {
    CHECK(pair.status == (links(pair, "n0", "n1") ? PairStatus::kSlow : PairStatus::kPass));
  }
}

TEST_CASE("fleet: one bad node in a noisy fleet of 3, 4, 16 and 64 nodes is blamed", "[rules]") {
  // +-40% on every figure; the bad node is 10 times slower. Whatever the draw, a healthy pair is
  // within 1.4/0.6 = 2.3x of any other, and a bad one at least 0.6x10/1.4 = 4.3x off.
  const int n = GENERATE(3, 4, 16, 64);
  const int trials = n == 64 ? 5 : 40;
  std::mt19937 random(20261122 + static_cast<unsigned>(n));
  for (int trial = 0; trial < trials; ++trial) {
    SweepReport report = fleet_of(n);
    add_noise(report, random, 0.4);
    const std::string bad = node_name(static_cast<int>(random() % static_cast<unsigned>(n)));
    for (auto& pair : report.pairs) {
      if (involves(pair, bad)) slow_down(pair, 10);
    }
    judge(report);
    INFO(n << " nodes, trial " << trial << ", bad " << bad << "\n" << slow_pairs(report));
    REQUIRE(report.blamed.size() == 1);
    CHECK(report.blamed[0].node == bad);
    REQUIRE(count_slow(report) == static_cast<std::size_t>(n - 1));
    for (const auto& pair : report.pairs) {
      if (!involves(pair, bad)) continue;
      CHECK(pair.status == PairStatus::kSlow);
      CHECK(pair_rules_name(pair.rules) == "fleet");
      CHECK_THAT(pair.reason, Catch::StartsWith("blamed on " + bad + ": fleet: "));
    }
  }
}

TEST_CASE("fleet: one bad link in a noisy fleet of 3, 4, 16 and 64 nodes blames nobody",
          "[rules]") {
  const int n = GENERATE(3, 4, 16, 64);
  const int trials = n == 64 ? 5 : 40;
  std::mt19937 random(19 + static_cast<unsigned>(n));
  for (int trial = 0; trial < trials; ++trial) {
    SweepReport report = fleet_of(n);
    add_noise(report, random, 0.4);
    const int one = static_cast<int>(random() % static_cast<unsigned>(n));
    const std::string x = node_name(one);
    const std::string y = node_name((one + 1) % n);
    for (auto& pair : report.pairs) {
      if (links(pair, x, y)) slow_down(pair, 10);
    }
    judge(report);
    INFO(n << " nodes, trial " << trial << ", bad link " << x << "-" << y << "\n"
           << slow_pairs(report));
    CHECK(report.blamed.empty());
    REQUIRE(count_slow(report) == 1);
    for (const auto& pair : report.pairs) {
      if (!links(pair, x, y)) continue;
      CHECK(pair.status == PairStatus::kSlow);
      CHECK_THAT(pair.reason, Catch::StartsWith("fleet: "));
    }
  }
}

TEST_CASE("fleet: 1000 healthy sweeps with +-40% noise flag nothing, at 3, 4, 16 and 64 nodes",
          "[rules]") {
  const int n = GENERATE(3, 4, 16, 64);
  constexpr int kTrials = 1000;
  std::mt19937 random(42 + static_cast<unsigned>(n));
  SweepReport report = fleet_of(n);
  int flagged_sweeps = 0;
  std::size_t flagged_pairs = 0;
  std::string first;
  for (int trial = 0; trial < kTrials; ++trial) {
    add_noise(report, random, 0.4);
    judge_fleet(report, {});
    const std::size_t slow = count_slow(report);
    if (slow == 0) continue;
    ++flagged_sweeps;
    flagged_pairs += slow;
    if (first.empty()) first = slow_pairs(report);
  }
  INFO(n << " nodes: " << flagged_sweeps << " of " << kTrials << " healthy sweeps flagged ("
         << flagged_pairs << " pairs); first:\n"
         << first);
  CHECK(flagged_sweeps == 0);
  // Every pass names the rule that judged it.
  for (const auto& pair : report.pairs) CHECK(pair_rules_name(pair.rules) == "fleet");
}

TEST_CASE("fleet: a typical figure from a node's upper quartile is not moved by lucky pairs",
          "[rules]") {
  // 16 nodes; three pairs of n0 measured 4x faster than the rest (a quiet moment): n0's upper
  // quartile of 15 pairs is its 4th best, a normal one, and nothing is flagged.
  SweepReport report = fleet_of(16);
  int lucky = 0;
  for (auto& pair : report.pairs) {
    if (involves(pair, "n0") && lucky < 3) {
      ++lucky;
      set_figures(pair, kLatencyUs / 4, kGbps * 4);
    }
  }
  judge(report);
  INFO(slow_pairs(report));
  CHECK(count_slow(report) == 0);
  REQUIRE(report.fleet);
  for (const auto& reference : report.fleet->references) {
    const bool tail = reference.subject.ends_with(" p99");  // test::measured_pair's: 1.5x
    CHECK(reference.typical == Approx(reference.latency ? kLatencyUs * (tail ? 1.5 : 1) : kGbps));
  }
}

TEST_CASE("fleet: tcp figures are judged too, and the typical figure needs 3 nodes", "[rules]") {
  SweepReport report = fleet_of(4);
  for (auto& pair : report.pairs) {
    TcpResult tcp;
    tcp.streams = 1;
    tcp.write_size = 131072;
    tcp.gbps = involves(pair, "n3") ? 0.05 : 0.9;
    pair.report->outcomes = {{"tcp", std::nullopt, tcp, ""}};
  }
  judge(report);
  CHECK(report.blamed.size() == 1);
  CHECK(count_slow(report) == 3);
  for (const auto& pair : report.pairs) {
    if (!involves(pair, "n3")) continue;
    CHECK_THAT(pair.reason, Catch::Contains("fleet: tcp 1 stream 131072 B: 0.05 Gb/s is 0.056x "
                                            "the fleet's typical 0.9 Gb/s"));
  }

  // Two nodes are no fleet: the rule judges nothing, and says so in the rules.
  SweepReport two = fleet_of(2);
  slow_down(two.pairs[0], 10);
  judge(two);
  CHECK(two.pairs[0].status == PairStatus::kPass);
  CHECK(pair_rules_name(two.pairs[0].rules) == "none");
  REQUIRE(two.fleet);
  CHECK(two.fleet->references.empty());
}

TEST_CASE("fleet: figures of other sizes or rails are not compared with each other", "[rules]") {
  SweepReport report = fleet_of(4);
  // A second rail where everything is 10 times slower than on rail 0, but alike.
  const std::size_t rail0 = report.pairs.size();
  for (std::size_t i = 0; i < rail0; ++i) {
    SweepPair copy = report.pairs[i];
    copy.rail = 1;
    slow_down(copy, 10);
    report.pairs.push_back(copy);
  }
  report.rails = 2;
  // n3's pairs ran 64 KiB as their largest bandwidth size: a different figure, not a slow one.
  for (auto& pair : report.pairs) {
    if (involves(pair, "n3")) pair.report->outcomes[1].verbs->sizes.resize(1);
  }
  judge(report);
  INFO(slow_pairs(report));
  CHECK(count_slow(report) == 0);
  // Per rail: latency and its tail; 1 MiB among n0..n2 (3 nodes); 64 KiB by n3 and its 3
  // partners.
  REQUIRE(report.fleet);
  CHECK(report.fleet->references.size() == 8);
}

TEST_CASE("fleet: a latency a ratio away but less than a microsecond above is not slow",
          "[rules]") {
  SweepReport report = fleet_of(3);
  for (auto& pair : report.pairs) set_figures(pair, 0.2, kGbps);
  set_figures(report.pairs[0], 0.9, kGbps);  // 4.5x, 0.7 us above
  judge(report);
  CHECK(count_slow(report) == 0);
  set_figures(report.pairs[0], 1.25, kGbps);  // 6.25x, 1.05 us above
  judge(report);
  CHECK(count_slow(report) == 1);
}

// The lab's 3 VMs, each one vCPU on 2 shared host cores: latency medians 600-650 us, minimums
// 220-270 us; then one pair hit by a burst of scheduling noise, as a lab sweep measured it.
TEST_CASE("fleet: a latency whose median a burst of noise moved, but not its minimum, is not slow",
          "[rules]") {
  SweepReport report = fleet_of(3);
  set_figures(report.pairs[0], 607.8, kGbps, 224);
  set_figures(report.pairs[1], 650, kGbps, 269);
  set_figures(report.pairs[2], 1988, kGbps, 512);  // 3.27x the typical median, 2.3x its floor
  judge(report);
  INFO(slow_pairs(report));
  CHECK(count_slow(report) == 0);
  REQUIRE(report.fleet);
  CHECK(report.fleet->references[1].typical == Approx(607.8));
  CHECK(report.fleet->references[1].typical_floor == Approx(224));

  // A slow path moves the floor too: that pair is slow, and its reason names the median.
  set_figures(report.pairs[2], 1988, kGbps, 900);
  judge(report);
  CHECK(count_slow(report) == 1);
  CHECK(report.pairs[2].status == PairStatus::kSlow);
  CHECK_THAT(
      report.pairs[2].reason,
      Catch::Contains("lat send 2 B: 1988 us is 3.27x the fleet's typical 607.8 us (slow "
                      "above 3x: too few pairs to know the fleet's spread (3 pairs)), minimum "
                      "900 us, 4.02x the fleet's 224 us"));
}

// netem delay 20ms on one node's fabric NIC, as the lab tier's blame step sets it.
TEST_CASE("fleet: a node whose every packet is delayed is blamed on its medians and minimums",
          "[rules]") {
  SweepReport report = fleet_of(3);
  for (auto& pair : report.pairs) {
    if (involves(pair, "n1")) {
      set_figures(pair, 20'600, kGbps, 20'240);
    } else {
      set_figures(pair, 600, kGbps, 240);
    }
  }
  judge(report);
  INFO(slow_pairs(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n1");
  CHECK(count_slow(report) == 2);
}

TEST_CASE("fleet: a latency without a minimum is judged on its median alone", "[rules]") {
  SweepReport report = fleet_of(3);
  set_figures(report.pairs[0], 600, kGbps, 0);
  set_figures(report.pairs[1], 620, kGbps, 0);
  set_figures(report.pairs[2], 1988, kGbps, 0);
  judge(report);
  INFO(slow_pairs(report));
  CHECK(count_slow(report) == 1);
  REQUIRE(report.fleet);
  CHECK(report.fleet->references[1].typical_floor == 0);

  // n2 without a minimum in any pair: the fleet has no typical minimum to hold others to.
  for (auto& pair : report.pairs) {
    const double median = links(pair, "n0", "n1") ? 1988 : 600;
    set_figures(pair, median, kGbps, involves(pair, "n2") ? 0 : median * 0.4);
  }
  judge(report);
  CHECK(report.fleet->references[1].typical_floor == 0);
  CHECK(count_slow(report) == 1);
}

TEST_CASE("fleet: factors from [thresholds], and the rule switched off", "[rules]") {
  SweepReport report = fleet_of(4);
  for (auto& pair : report.pairs) {
    if (links(pair, "n0", "n1")) slow_down(pair, 2.5);
  }
  SweepReport defaults = report;
  judge(defaults);
  // The other ways agree exactly: the line learned from them is the tightest, 2.5x is past it.
  CHECK(count_slow(defaults) == 1);

  FleetFactors pinned;
  pinned.latency_pinned = true;
  pinned.bandwidth_pinned = true;
  SweepReport loosest = report;
  judge(loosest, pinned);
  CHECK(count_slow(loosest) == 0);  // 2.5x is within the default factors

  FleetFactors strict;
  strict.max_latency_ratio = 2;
  strict.min_bandwidth_ratio = 0.5;
  SweepReport tighter = report;
  judge(tighter, strict);
  CHECK(count_slow(tighter) == 1);
  REQUIRE(tighter.fleet);
  CHECK(tighter.fleet->factors.min_bandwidth_ratio == 0.5);

  FleetFactors off;
  off.on = false;
  SweepReport unjudged = report;
  for (auto& pair : unjudged.pairs) slow_down(pair, 1);
  slow_down(unjudged.pairs[0], 100);
  judge(unjudged, off);
  CHECK(count_slow(unjudged) == 0);
  for (const auto& pair : unjudged.pairs) CHECK(pair_rules_name(pair.rules) == "none");
  REQUIRE(unjudged.fleet);
  CHECK_FALSE(unjudged.fleet->factors.on);
  CHECK(unjudged.fleet->references.empty());
}

TEST_CASE("fleet: with thresholds, each pair names every rule that decided it", "[rules]") {
  SweepReport report = fleet_of(3);
  // n2-n0: slow by a threshold already, and far from the fleet too.
  // n1-n2 and n0-n1: passes a threshold held them to.
  for (auto& pair : report.pairs) {
    pair.rules.threshold = true;
    if (links(pair, "n0", "n2")) {
      slow_down(pair, 10);
      pair.status = PairStatus::kSlow;
      pair.rules.threshold = true;
      pair.reason = "pair.bandwidth bw write 1048576 B: 9 Gb/s (expected >= 50 Gb/s)";
    }
  }
  judge_fleet(report, {});
  for (const auto& pair : report.pairs) {
    CHECK(pair_rules_name(pair.rules) == "threshold+fleet");
    if (!links(pair, "n0", "n2")) continue;
    CHECK(pair.status == PairStatus::kSlow);
    CHECK_THAT(pair.reason, Catch::StartsWith("pair.bandwidth"));  // the first rule's reason
    // The fleet's shortfall follows it, once however often the sweep is judged.
    CHECK_THAT(pair.reason, Catch::Contains("(expected >= 50 Gb/s); fleet: lat send 2 B: 15 us is "
                                            "10x the fleet's typical 1.5 us (slow above 3x: too "
                                            "few pairs to know the fleet's spread (3 pairs))"));
    CHECK_THAT(pair.reason, Catch::EndsWith("; bw write 1048576 B: 9 Gb/s is 0.1x the fleet's "
                                            "typical 90 Gb/s (slow below 0.33x: too few ways to "
                                            "know the fleet's spread (3 ways))"));
  }
  std::vector<std::string> once;
  for (const auto& pair : report.pairs) once.push_back(pair.reason);
  judge_fleet(report, {});
  for (std::size_t i = 0; i < report.pairs.size(); ++i) CHECK(report.pairs[i].reason == once[i]);
}

TEST_CASE("fleet: judging a judged sweep again changes nothing", "[rules]") {
  SweepReport report = fleet_of(4);
  for (auto& pair : report.pairs) {
    if (involves(pair, "n1")) slow_down(pair, 10);
  }
  judge_fleet(report, {});
  SweepReport again = report;
  judge_fleet(again, {});
  for (std::size_t i = 0; i < report.pairs.size(); ++i) {
    CHECK(again.pairs[i].status == report.pairs[i].status);
    CHECK(again.pairs[i].reason == report.pairs[i].reason);
    CHECK(pair_rules_name(again.pairs[i].rules) == pair_rules_name(report.pairs[i].rules));
  }
}

TEST_CASE("fleet: pairs that failed are neither judged nor part of the fleet", "[rules]") {
  SweepReport report = fleet_of(3);
  report.pairs[0].status = PairStatus::kFailed;
  report.pairs[0].reason = "pair.counters: local symbol_error +4";
  judge(report);
  CHECK(report.pairs[0].status == PairStatus::kFailed);
  CHECK(pair_rules_name(report.pairs[0].rules) == "none");
  CHECK(fleet_figures(report.pairs[0]).empty());
  // The two other pairs still hold all three nodes: the fleet has its typical figures.
  REQUIRE(report.fleet);
  CHECK(report.fleet->references.size() == 3);
}

TEST_CASE("fleet: a figure that is not a number is compared with nothing", "[rules]") {
  SweepReport report = fleet_of(4);
  set_figures(report.pairs[0], kLatencyUs, std::nan(""));
  set_figures(report.pairs[1], std::numeric_limits<double>::infinity(), kGbps);
  judge(report);
  CHECK(count_slow(report) == 0);
  CHECK(fleet_figures(report.pairs[0]).size() == 2);  // the latency and its tail
  REQUIRE(report.fleet);
  for (const auto& reference : report.fleet->references) CHECK(std::isfinite(reference.typical));
}
