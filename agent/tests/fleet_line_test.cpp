// The fleet rule's line drawn from the fleet's own spread (rules/fleet_line.hpp): a quiet fleet
// finds a node at half speed that the fixed 0.33x line let pass, a noisy one keeps the loosest
// line and says why, a bad node does not widen the spread it is judged by, too few ways fall
// back to the factors, and [thresholds] pins them.
#include "rules/fleet_line.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/config_loader.hpp"
#include "rules/blame.hpp"
#include "rules/fleet_verdict.hpp"
#include "schema/fleet_json.hpp"
#include "scratch_path.hpp"
#include "sweep_sample.hpp"
#include "util/json_fields.hpp"

using namespace ibkit;

namespace {

constexpr double kGbps = 40;  // each way of a healthy pair

// All pairs of n nodes, bidirectional (a sweep's default), each way at kGbps times lognormal
// noise of `sigma`, divided by `way(from, to)`: the factor that way is slowed by (1: healthy).
template <class Way>
SweepReport quiet_fleet(int n, double sigma, unsigned seed, Way way) {
  std::mt19937 random(seed);
  std::lognormal_distribution<double> noise(0, sigma);
  SweepReport report = test::all_pairs_sweep(n, 1.5, 2 * kGbps);
  for (auto& pair : report.pairs) {
    const double there = kGbps * noise(random) / way(pair.a, pair.b);
    const double back = kGbps * noise(random) / way(pair.b, pair.a);
    test::set_each_way(pair, there, back);
  }
  return report;
}

auto node_at(const std::string& slow, double factor) {
  return [slow, factor](const std::string& from, const std::string& to) {
    return from == slow || to == slow ? factor : 1.0;
  };
}

auto healthy() {
  return [](const std::string&, const std::string&) { return 1.0; };
}

const FleetReference& bandwidth_reference(const SweepReport& report) {
  REQUIRE(report.fleet);
  for (const auto& reference : report.fleet->references) {
    if (!reference.latency) return reference;
  }
  FAIL("no bandwidth reference");
  return report.fleet->references.front();
}

void judge(SweepReport& report, const FleetFactors& factors = {}) {
  judge_fleet(report, factors);
  blame_nodes(report);
}

bool involves(const SweepPair& pair, const std::string& node) {
  return pair.a == node || pair.b == node;
}

}  // namespace

TEST_CASE("fleet line: a quiet fleet blames a node at half speed that the fixed 0.33x passed",
          "[rules]") {
  const int n = GENERATE(4, 16);
  SweepReport report = quiet_fleet(n, 0.02, 11, node_at("n1", 2));
  SweepReport fixed = report;
  judge(report);
  INFO(test::pairs_not_passed(report));
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n1");
  for (const auto& pair : report.pairs)
    CHECK(pair.status == (involves(pair, "n1") ? PairStatus::kSlow : PairStatus::kPass));
  const auto& reference = bandwidth_reference(report);
  CHECK(reference.basis == FleetLineBasis::kSpread);
  CHECK(reference.line > 0.6);
  CHECK(reference.spread < 0.04);  // the half-speed node's ways did not widen it
  CHECK_THAT(report.pairs[0].reason + report.pairs[1].reason,
             Catch::Contains(": the fleet's healthy ways agree within ±"));

  // Today's rule at its fixed factors saw nothing.
  FleetFactors pinned;
  pinned.bandwidth_pinned = true;
  pinned.latency_pinned = true;
  judge(fixed, pinned);
  CHECK(test::pairs_not_passed(fixed).empty());
}

TEST_CASE("fleet line: a node at 0.8x of a quiet fleet is inside the tightest line", "[rules]") {
  SweepReport report = quiet_fleet(16, 0.01, 12, node_at("n3", 1 / 0.85));
  judge(report);
  INFO(test::pairs_not_passed(report));
  CHECK(test::pairs_not_passed(report).empty());
  const auto& reference = bandwidth_reference(report);
  CHECK(reference.line == kFleetTightestBandwidthRatio);
  CHECK_THAT(fleet_line_text(reference, {}), Catch::StartsWith("slow below 0.8x, the tightest "
                                                               "line: the fleet's healthy ways "
                                                               "agree within ±"));
}

TEST_CASE("fleet line: a noisy fleet keeps the loosest line for a half-speed node, and says why",
          "[rules]") {
  SweepReport report = quiet_fleet(16, 0.3, 13, node_at("n2", 2));
  judge(report);
  const auto& reference = bandwidth_reference(report);
  CHECK(reference.basis == FleetLineBasis::kSpread);
  CHECK(reference.line == Approx(0.33));
  const std::string text = fleet_line_text(reference, {});
  CHECK_THAT(text, Catch::StartsWith("slow below 0.33x, the loosest line: the fleet's healthy "
                                     "ways spread ±"));
  CHECK_THAT(text, Catch::EndsWith("(240 ways)"));
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kSlow) continue;
    // Only a way below 0.33x is slow: by its noise, not by the node's half speed alone.
    CHECK_THAT(pair.reason, Catch::Contains("(slow below 0.33x, the loosest line"));
  }
}

TEST_CASE("fleet line: 3 nodes on a quiet fabric blame a node sending at half, a noisy one not",
          "[rules]") {
  // The lab's case: 3 nodes, one node's egress at half. Its 2 ways out are set apart, and the
  // other 4 ways leave 3 figures to learn the spread from: few, so the line is drawn wide
  // (Student's t at 0.9999), yet a quiet fabric's line is still well above 0.5x.
  const auto sends_at_half = [](const std::string& from, const std::string&) {
    return from == "n2" ? 2.0 : 1.0;
  };
  SweepReport quiet = quiet_fleet(3, 0.01, 14, sends_at_half);
  judge(quiet);
  const auto& learned = bandwidth_reference(quiet);
  CHECK(learned.basis == FleetLineBasis::kSpread);
  CHECK(learned.spread_ways == 6);
  CHECK(learned.line > 0.55);
  INFO(test::pairs_not_passed(quiet));
  for (const auto& pair : quiet.pairs) {
    const bool with_n2 = pair.a == "n2" || pair.b == "n2";
    CHECK(pair.status == (with_n2 ? PairStatus::kSlow : PairStatus::kPass));
  }
  REQUIRE(quiet.blamed.size() == 1);
  CHECK(quiet.blamed[0].node == "n2");
  CHECK_THAT(quiet.blamed[0].reason, Catch::Contains("n2 sends"));

  // Uniform noise of +-40% (healthy ways up to 2.3x apart) keeps the loosest line at 3 nodes.
  for (unsigned seed = 0; seed < 200; ++seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> noise(0.6, 1.4);
    SweepReport noisy = test::all_pairs_sweep(3, 1.5, 2 * kGbps);
    for (auto& pair : noisy.pairs)
      test::set_each_way(pair, kGbps * noise(random), kGbps * noise(random));
    judge(noisy);
    INFO("seed " << seed);
    CHECK(test::pairs_not_passed(noisy).empty());
  }
}

TEST_CASE("fleet line: a link at half in a quiet fleet of 4 is slow both ways, nobody blamed",
          "[rules]") {
  // Its two ways fall in the lowest node's groups and would widen the spread they are judged by;
  // set apart as a link's, the other 10 ways draw the line.
  const auto link_at_half = [](const std::string& from, const std::string& to) {
    return (from == "n1" && to == "n3") || (from == "n3" && to == "n1") ? 2.0 : 1.0;
  };
  for (unsigned seed = 20; seed < 40; ++seed) {
    SweepReport report = quiet_fleet(4, 0.02, seed, link_at_half);
    judge(report);
    INFO("seed " << seed << "\n" << test::pairs_not_passed(report));
    for (const auto& pair : report.pairs) {
      const bool bad = (pair.a == "n1" && pair.b == "n3") || (pair.a == "n3" && pair.b == "n1");
      CHECK(pair.status == (bad ? PairStatus::kSlow : PairStatus::kPass));
    }
    CHECK(report.blamed.empty());
    CHECK(bandwidth_reference(report).spread_ways == 10);
  }
}

TEST_CASE("fleet line: 3 nodes' latency is too few pairs to know the spread, and says so",
          "[rules]") {
  // 3 pairs: the lowest node's 2 and 1 more leave 1 figure past the centres.
  SweepReport three = quiet_fleet(3, 0.02, 14, healthy());
  judge(three);
  REQUIRE(three.fleet);
  const auto few = std::find_if(three.fleet->references.begin(), three.fleet->references.end(),
                                [](const FleetReference& reference) { return reference.latency; });
  REQUIRE(few != three.fleet->references.end());
  CHECK(few->basis == FleetLineBasis::kFactors);
  CHECK(few->line == Approx(3));
  CHECK(fleet_line_text(*few, {}) ==
        "slow above 3x: too few pairs to know the fleet's spread (3 pairs)");

  SweepReport four = quiet_fleet(4, 0.02, 14, healthy());
  judge(four);
  const auto& enough = bandwidth_reference(four);
  CHECK(enough.basis == FleetLineBasis::kSpread);
  CHECK(enough.spread_ways == 12);
  CHECK(enough.line > 0.6);
  CHECK(test::pairs_not_passed(four).empty());
}

TEST_CASE(
    "fleet line: a bad node that would widen a naive spread is set apart, either way it "
    "is slow",
    "[rules]") {
  // One node at a third both ways, or sending at half only: its ways' spread alone is wide.
  for (const bool sending_only : {false, true}) {
    INFO((sending_only ? "sending at half" : "a third both ways"));
    const auto way = [&](const std::string& from, const std::string& to) {
      if (sending_only) return from == "n5" ? 2.0 : 1.0;
      return from == "n5" || to == "n5" ? 3.0 : 1.0;
    };
    SweepReport report = quiet_fleet(8, 0.03, 15, way);
    std::vector<FleetSample> samples;
    for (const auto& pair : report.pairs) {
      for (const auto& figure : fleet_figures(pair)) {
        if (figure.latency) continue;
        const auto arrow = figure.direction.find(" -> ");
        samples.push_back({figure.value, figure.direction.substr(0, arrow),
                           figure.direction.substr(arrow + 4), true});
      }
    }
    double sum = 0;
    double squares = 0;
    for (const auto& sample : samples) sum += std::log(sample.value);
    const double mean = sum / static_cast<double>(samples.size());
    for (const auto& sample : samples) squares += std::pow(std::log(sample.value) - mean, 2);
    const double naive = std::sqrt(squares / static_cast<double>(samples.size() - 1));
    CHECK(naive > 0.15);

    FleetReference reference;
    reference.typical = kGbps;
    draw_fleet_line(reference, samples, {});
    CHECK(reference.spread < 0.05);
    CHECK(reference.line > 0.7);
    judge(report);
    INFO(test::pairs_not_passed(report));
    REQUIRE(report.blamed.size() == 1);
    CHECK(report.blamed[0].node == "n5");
    if (sending_only)
      CHECK_THAT(report.blamed[0].reason, Catch::Contains("every way found short is one n5 sends"));
  }
}

TEST_CASE("fleet line: a node whose every way is low together is judged as a node", "[rules]") {
  // At 10% noise the line for one way is near 0.57x: some ways of a node at 0.62x stay
  // inside it, but all 15 of its ways out are past the line for a node's ways together.
  SweepReport report = quiet_fleet(16, 0.10, 18, [](const std::string& from, const std::string&) {
    return from == "n4" ? 1.6 : 1.0;
  });
  judge(report);
  INFO(test::pairs_not_passed(report));
  const auto& reference = bandwidth_reference(report);
  CHECK(reference.low_senders == std::vector<std::string>{"n4"});
  CHECK(reference.low_receivers.empty());
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n4");
  CHECK_THAT(report.blamed[0].reason, Catch::Contains("every way found short is one n4 sends"));
  bool judged_as_node = false;
  for (const auto& pair : report.pairs) {
    CHECK(pair.status == (involves(pair, "n4") ? PairStatus::kSlow : PairStatus::kPass));
    judged_as_node |= pair.reason.find("(every way n4 sends is past ") != std::string::npos;
  }
  CHECK(judged_as_node);

  // 200 healthy fleets of that noise: no node's ways are all that low.
  for (unsigned seed = 100; seed < 300; ++seed) {
    SweepReport fleet = quiet_fleet(16, 0.10, seed, healthy());
    judge(fleet);
    INFO("seed " << seed);
    REQUIRE(test::pairs_not_passed(fleet).empty());
  }
}

TEST_CASE("fleet line: a factor set in [thresholds] is the line, whatever the spread",
          "[rules][config]") {
  const std::string config = test::write_scratch_file(
      "fleet-pinned.toml", "[thresholds]\nfleet_min_bandwidth_ratio = 0.5\n");
  auto loaded = load_config(config);
  REQUIRE(loaded);
  const FleetFactors factors = loaded->thresholds.fleet;
  CHECK(factors.bandwidth_pinned);
  CHECK_FALSE(factors.latency_pinned);

  SweepReport report = quiet_fleet(16, 0.02, 16, node_at("n1", 1.6));
  judge(report, factors);
  const auto& reference = bandwidth_reference(report);
  CHECK(reference.basis == FleetLineBasis::kPinned);
  CHECK(reference.line == 0.5);
  CHECK(fleet_line_text(reference, factors) ==
        "slow below 0.5x, as [thresholds] fleet_min_bandwidth_ratio pins it");
  CHECK(test::pairs_not_passed(report).empty());  // 0.63x is above the pinned 0.5x
}

TEST_CASE("fleet line: the line, its basis and spread survive the report's JSON", "[schema]") {
  SweepReport report = quiet_fleet(6, 0.02, 17, healthy());
  judge(report);
  REQUIRE(report.fleet);
  const auto written = fleet_json(*report.fleet);
  const nlohmann::json parsed = nlohmann::json::parse(written.dump());
  JsonFields fields(parsed, "fleet");
  const FleetJudgment read = read_fleet(fields, parsed, "fleet");
  REQUIRE_FALSE(fields.failed());
  REQUIRE(read.references.size() == report.fleet->references.size());
  for (std::size_t i = 0; i < read.references.size(); ++i) {
    CHECK(read.references[i].line == report.fleet->references[i].line);
    CHECK(read.references[i].basis == report.fleet->references[i].basis);
    CHECK(read.references[i].spread_ways == report.fleet->references[i].spread_ways);
  }
  nlohmann::json bad = parsed;
  bad["references"][0]["line_basis"] = "guess";
  JsonFields bad_fields(bad, "fleet");
  read_fleet(bad_fields, bad, "fleet");
  REQUIRE(bad_fields.failed());
  CHECK_THAT(bad_fields.error(), Catch::Contains("is not factors, spread or pinned"));

  // A line the wrong side of 1 is refused rather than read: it would make a healthy fleet slow.
  for (auto& reference : bad["references"]) reference["line_basis"] = "spread";
  std::size_t bandwidth = 0;
  while (bad["references"][bandwidth]["figure"] != "bandwidth_gbps") ++bandwidth;
  bad["references"][bandwidth]["line"] = 7.0;
  JsonFields wrong_side(bad, "fleet");
  read_fleet(wrong_side, bad, "fleet");
  REQUIRE(wrong_side.failed());
  CHECK_THAT(wrong_side.error(), Catch::Contains("line is 7, not a bandwidth's line"));
}
