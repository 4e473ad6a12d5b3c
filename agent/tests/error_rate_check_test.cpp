// port.error_rate: error counter rises between two checks judged per hour and per second, the
// per-speed defaults from the IBTA bit error rate, the ports' history of verdicts in the state
// file, and the [limits] keys that set the limits.
#include "checks/error_rate_check.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "checks/rate_history.hpp"
#include "cli/node_check.hpp"
#include "config/config_loader.hpp"
#include "counter_state_fixture.hpp"
#include "fixture_tree.hpp"
#include "schema/counter_state_json.hpp"
#include "scratch_path.hpp"
#include "sysfs/link_rate.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

constexpr std::int64_t kHour = 3600;

// One port's judgement when `counter` rose by `rise` in `elapsed` seconds and nothing else did.
PortRateJudgement judge_rise(const std::string& counter, std::uint64_t rise, std::int64_t elapsed,
                             std::optional<double> data_gbps, const ErrorRateLimits& limits = {},
                             const std::string& history = "") {
  PortCounters before;
  // 3: below every counter's maximum (local_link_integrity_errors stops at 15).
  for (auto name : kRateCounters) before[std::string(name)] = 3;
  PortCounters now = before;
  now[counter] += rise;
  return judge_error_rates("mlx5_0/1", before, now, elapsed, data_gbps, limits, history);
}

Status status_of(const std::string& counter, std::uint64_t rise, std::int64_t elapsed,
                 std::optional<double> data_gbps, const ErrorRateLimits& limits = {}) {
  return judge_rise(counter, rise, elapsed, data_gbps, limits).result.status;
}

}  // namespace

TEST_CASE("error rates: the symbol_error budget is the data rate times 3.6 an hour",
          "[checks][rates]") {
  // ports/N/rate as the kernel writes it, and the IBTA budget at BER 1e-12 (docs/verdicts.md).
  const std::pair<const char*, double> rates[] = {
      {"2.5 Gb/sec (1X SDR)", 7.2},    {"10 Gb/sec (4X SDR)", 28.8},
      {"5 Gb/sec (1X DDR)", 14.4},     {"20 Gb/sec (4X DDR)", 57.6},
      {"10 Gb/sec (1X QDR)", 28.8},    {"40 Gb/sec (4X QDR)", 115.2},
      {"10 Gb/sec (1X FDR10)", 36},    {"40 Gb/sec (4X FDR10)", 144},
      {"14 Gb/sec (1X FDR)", 49.0909}, {"56 Gb/sec (4X FDR)", 196.3636},
      {"25 Gb/sec (1X EDR)", 90},      {"100 Gb/sec (4X EDR)", 360},
      {"50 Gb/sec (1X HDR)", 180},     {"200 Gb/sec (4X HDR)", 720},
      {"100 Gb/sec (1X NDR)", 360},    {"400 Gb/sec (4X NDR)", 1440},
      {"200 Gb/sec (1X XDR)", 720},    {"800 Gb/sec (4X XDR)", 2880},
  };
  for (const auto& [text, budget] : rates) {
    INFO(text);
    const auto rate = parse_link_rate(text, false);
    REQUIRE(rate);
    const auto limit = error_rate_limit({}, "symbol_error", rate->data_gbps);
    REQUIRE(limit.per_hour);
    CHECK(*limit.per_hour == Approx(budget).epsilon(1e-5));
    const auto below = static_cast<std::uint64_t>(std::floor(budget));
    // An hour apart: the rise is the rate.
    CHECK(status_of("symbol_error", below, kHour, rate->data_gbps) == Status::kPass);
    const auto above = judge_rise("symbol_error", below + 1, kHour, rate->data_gbps);
    CHECK(above.result.status == Status::kFail);
    CHECK_THAT(above.result.observed, Catch::Contains("BER 1e-12 at"));
    CHECK(status_of("port_rcv_errors", below + 1, kHour, rate->data_gbps) == Status::kFail);
  }
}

TEST_CASE("error rates: at the limit passes and one above fails named with the interval",
          "[checks][rates]") {
  CHECK(status_of("symbol_error", 720, kHour, 200) == Status::kPass);
  const auto above = judge_rise("symbol_error", 900, kHour, 200);
  CHECK(above.result.status == Status::kFail);
  CHECK(above.result.observed ==
        "symbol_error +900 in 60 min: 900/h, above 720/h (BER 1e-12 at 200 Gb/s)");
  CHECK_THAT(above.result.hint, Catch::Contains("cable"));
  CHECK(status_of("symbol_error", 115, kHour, 32) == Status::kPass);
  CHECK(status_of("symbol_error", 116, kHour, 32) == Status::kFail);
  const auto quiet = judge_rise("symbol_error", 0, kHour, 200);
  CHECK(quiet.result.status == Status::kPass);
  CHECK(quiet.result.observed == "no error counter rose in 60 min");
  CHECK(quiet.history == "p");
}

TEST_CASE("error rates: a check soon after the last divides by an hour and a later one by its gap",
          "[checks][rates]") {
  // 30 s after the timer's check: one error is 1/h, not 120/h.
  const auto one = judge_rise("symbol_error", 1, 30, 32);
  CHECK(one.result.status == Status::kPass);
  CHECK(one.result.observed == "symbol_error +1 in 30 s: 1/h, within 115.2/h");
  // More than the hour's budget within minutes is above it all the same.
  CHECK(status_of("symbol_error", 116, 30, 32) == Status::kFail);
  // Two hours apart: 1440 at 4X HDR is 720 an hour, 1442 is above.
  CHECK(status_of("symbol_error", 1440, 2 * kHour, 200) == Status::kPass);
  CHECK(status_of("symbol_error", 1442, 2 * kHour, 200) == Status::kFail);
}

TEST_CASE("error rates: a burst above the per-second limit only is degraded", "[checks][rates]") {
  // 4X HDR: 700 symbol errors in 60 s are within 720 an hour but 11.7 a second.
  const auto burst = judge_rise("symbol_error", 700, 60, 200);
  CHECK(burst.result.status == Status::kWarn);
  CHECK_THAT(burst.result.observed, Catch::StartsWith("symbol_error +700 in 60 s: 11.667/s, "
                                                      "above 10/s (a burst"));
  CHECK_THAT(burst.result.hint, Catch::Contains("burst"));
  CHECK(burst.history == "d");
  CHECK(status_of("symbol_error", 600, 60, 200) == Status::kPass);
  // The burst window is at least a minute: 599 in 10 s are 599 / 60 = 9.98 a second, not 59.9.
  CHECK(status_of("symbol_error", 599, 10, 200) == Status::kPass);
  // link_error_recovery: more than 5 a minute is degraded (NVSentinel), one retrain just after
  // a check is not, and more than one an hour fails.
  CHECK(status_of("link_error_recovery", 1, 10, 200) == Status::kPass);
  CHECK(status_of("link_error_recovery", 2, kHour, 200) == Status::kFail);
  CHECK(status_of("link_error_recovery", 1, kHour, 200) == Status::kPass);
  ErrorRateLimits loose;
  loose.per_hour["link_error_recovery"] = 100;
  CHECK(status_of("link_error_recovery", 5, 60, 200, loose) == Status::kPass);
  CHECK(status_of("link_error_recovery", 6, 60, 200, loose) == Status::kWarn);
}

TEST_CASE("error rates: any local_link_integrity or buffer overrun error fails",
          "[checks][rates]") {
  CHECK(status_of("local_link_integrity_errors", 1, 2 * kHour, 200) == Status::kFail);
  CHECK(status_of("excessive_buffer_overrun_errors", 1, 2 * kHour, std::nullopt) == Status::kFail);
}

TEST_CASE("error rates: configured limits win over the defaults", "[checks][rates]") {
  ErrorRateLimits limits;
  limits.per_hour["symbol_error"] = 120;  // NVSentinel's flat limit
  limits.per_second["port_rcv_errors"] = 1;
  const auto strict = judge_rise("symbol_error", 121, kHour, 200, limits);
  CHECK(strict.result.status == Status::kFail);
  CHECK_THAT(strict.result.observed,
             Catch::Contains("above 120/h ([limits] symbol_error_per_hour)"));
  CHECK(status_of("symbol_error", 120, kHour, 200, limits) == Status::kPass);
  CHECK(status_of("port_rcv_errors", 61, 60, 200, limits) == Status::kWarn);
  CHECK(status_of("port_rcv_errors", 60, 60, 200, limits) == Status::kPass);
  ErrorRateLimits lenient;
  lenient.per_hour["local_link_integrity_errors"] = 2;
  CHECK(status_of("local_link_integrity_errors", 2, kHour, 200, lenient) == Status::kPass);
}

TEST_CASE("error rates: Ethernet ports have no bit error rate budget unless one is set",
          "[checks][rates]") {
  const auto roce = judge_rise("symbol_error", 5000, kHour, std::nullopt);
  CHECK(roce.result.status == Status::kPass);
  CHECK_THAT(roce.result.observed, Catch::Contains("not judged: symbol_error, port_rcv_errors"));
  CHECK_THAT(roce.result.hint, Catch::Contains("InfiniBand"));
  ErrorRateLimits limits;
  limits.per_hour["symbol_error"] = 100;
  CHECK(status_of("symbol_error", 101, kHour, std::nullopt, limits) == Status::kFail);
  // A port with only the BER counters and no data rate is not judged at all.
  const PortCounters only{{"symbol_error", 1}, {"port_rcv_errors", 1}};
  const auto skipped = judge_error_rates("mlx5_0/1", only, only, kHour, std::nullopt, {}, "pp");
  CHECK(skipped.result.status == Status::kSkip);
  CHECK(skipped.history == "pp");
}

TEST_CASE("error rates: a counter stopped at its maximum gives no rate", "[checks][rates]") {
  PortCounters before{{"symbol_error", 65535}, {"link_error_recovery", 250}};
  PortCounters now{{"symbol_error", 65535}, {"link_error_recovery", 255}};
  const auto stuck = judge_error_rates("mlx5_0/1", before, now, kHour, 200, {}, "");
  // link_error_recovery reached 255 with a rise of 5 or more: above 1 an hour, fails.
  CHECK(stuck.result.status == Status::kFail);
  CHECK_THAT(stuck.result.observed,
             Catch::Contains("symbol_error stopped counting at its maximum, 65535"));
  CHECK_THAT(stuck.result.observed, Catch::Contains("link_error_recovery +5 or more in 60 min"));
  before["link_error_recovery"] = now["link_error_recovery"] = 3;
  const auto only_stuck = judge_error_rates("mlx5_0/1", before, now, kHour, 200, {}, "");
  CHECK(only_stuck.result.status == Status::kWarn);
  CHECK_THAT(only_stuck.result.hint, Catch::Contains("perfquery -R"));
  // Stuck is not degraded: the history keeps a pass.
  CHECK(only_stuck.history == "p");
  // A counter that reached its maximum within its limit may have risen more: a warning.
  const auto reached = judge_error_rates("mlx5_0/1", {{"symbol_error", 65000}},
                                         {{"symbol_error", 65535}}, 2 * kHour, 200, {}, "");
  CHECK(reached.result.status == Status::kWarn);
  CHECK_THAT(reached.result.observed, Catch::Contains("may be higher"));
}

TEST_CASE("error rates: degraded or failed on 3 of the last 5 checks fails", "[checks][rates]") {
  CHECK(add_rate_verdict("ppppp", Status::kWarn) == "ppppd");
  CHECK(add_rate_verdict("", Status::kFail) == "f");
  CHECK(bad_rate_runs("pdfpd") == 3);

  const auto third = judge_rise("symbol_error", 700, 60, 200, {}, "dd");
  CHECK(third.history == "ddd");
  CHECK(third.result.status == Status::kFail);
  CHECK_THAT(third.result.observed,
             Catch::EndsWith("; degraded or failed on 3 of the last 3 runs"));
  CHECK_THAT(third.result.hint, Catch::Contains("again and again"));
  // A clean check does not clear a port that was bad on 3 of its last 5.
  const auto clean = judge_rise("symbol_error", 0, kHour, 200, {}, "fdpd");
  CHECK(clean.history == "fdpdp");
  CHECK(clean.result.status == Status::kFail);
  // Two of five, or the third bad one gone out of the window, is not enough.
  CHECK(judge_rise("symbol_error", 0, kHour, 200, {}, "ddpp").result.status == Status::kPass);
  const auto aged = judge_rise("symbol_error", 0, kHour, 200, {}, "dpdpd");
  CHECK(aged.history == "pdpdp");
  CHECK(aged.result.status == Status::kPass);
  // The history keeps what the rates said, not the repeat's fail: passes age it out.
  CHECK(judge_rise("symbol_error", 0, kHour, 200, {}, "dddpp").history == "ddppp");
}

namespace {

// The baseline of a check an hour after `tree`'s counters were kept, with `history` for
// mthca0/1 (4X DDR, 16 Gb/s: 57.6 symbol errors an hour).
CounterBaseline hour_after(const FixtureTree& tree, const std::string& history = "") {
  auto baseline = baseline_after(tree, kHour);
  if (!history.empty()) baseline.rate_history["mthca0/1"] = history;
  return baseline;
}

}  // namespace

TEST_CASE("port.error_rate: judged on a fixture port against its 4X DDR budget",
          "[checks][rates]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto baseline = hour_after(tree, "pd");
  tree.write(kOnePortCounters + "symbol_error", "58");
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.error_rate", "mthca0/1");
  CHECK(result.status == Status::kFail);
  CHECK_THAT(result.observed, Catch::StartsWith("symbol_error +58 in 60 min: 58/h, above 57.6/h "
                                                "(BER 1e-12 at 16 Gb/s)"));
  CHECK_THAT(result.expected, Catch::Contains("symbol_error <= 57.6/h (BER 1e-12 at 16 Gb/s)"));
  CHECK(run.rate_history.at("mthca0/1") == "pdf");
  // One result a port: the second port's counters did not rise.
  CHECK(count_results(run, "port.error_rate", Status::kFail) == 1);
}

TEST_CASE("port.error_rate: reset counters skip the port and start its history again",
          "[checks][rates]") {
  FixtureTree tree("mthca-ddr-2port");
  tree.write(kOnePortCounters + "symbol_error", "40");
  const auto baseline = hour_after(tree, "ddp");
  tree.write(kOnePortCounters + "symbol_error", "2");  // perfquery -R, or a driver reload
  const auto run = check_against(tree, baseline);
  const auto& result = find_result(run, "port.error_rate", "mthca0/1");
  CHECK(result.status == Status::kSkip);
  CHECK_THAT(result.hint, Catch::Contains("reset since the previous check (symbol_error 40 -> 2)"));
  CHECK(run.rate_history.count("mthca0/1") == 0);
}

TEST_CASE("port.error_rate: a reboot and a new port are skipped saying why", "[checks][rates]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto state = scratch_path("rates.json").string();
  SECTION("a reboot: no rates, but the history stays") {
    CounterSnapshot snapshot{"node1", "boot-a", kEarlier, {{"mthca0/1", {{"symbol_error", 9}}}}};
    snapshot.rate_history["mthca0/1"] = "dd";
    write_scratch_file("rates.json", render_counter_snapshot(snapshot));
    const auto baseline = load_counter_baseline(state, "node1", "boot-b", kEarlier + kHour);
    CHECK_FALSE(baseline.previous);
    CHECK(baseline.rate_history.at("mthca0/1") == "dd");
    const auto run = check_against(tree, baseline);
    CHECK_THAT(find_result(run, "port.error_rate", "").hint, Catch::Contains("booted since"));
    CHECK(run.rate_history.at("mthca0/1") == "dd");
  }
  SECTION("a port not in the previous check") {
    auto baseline = hour_after(tree);
    baseline.previous->ports.erase("mthca0/1");
    const auto run = check_against(tree, baseline);
    CHECK_THAT(find_result(run, "port.error_rate", "mthca0/1").hint,
               Catch::Contains("not in the previous check"));
  }
  std::filesystem::remove(state);
}

TEST_CASE("check --state: three degraded runs in a row fail the port through the state file",
          "[checks][rates]") {
  FixtureTree tree("mthca-ddr-2port");
  CheckOptions options;
  options.root = tree.path().string();
  options.config = write_scratch_file("rates.toml", kOnePortConfig);
  options.state = scratch_path("rates-state.json").string();
  REQUIRE(run_node_check(options));  // the first check: the baseline
  // Each run comes within a second of the last: 20 more symbol errors are a burst of 20 a
  // minute against a per-second limit of 0.1, within the hour's 57.6.
  const std::string toml =
      std::string(kOnePortConfig) + "[limits]\nsymbol_error_per_second = 0.1\n";
  options.config = write_scratch_file("rates.toml", toml);
  std::vector<Status> statuses;
  for (int run = 1; run <= 3; ++run) {
    tree.write(kOnePortCounters + "symbol_error", std::to_string(20 * run));
    auto check = run_node_check(options);
    REQUIRE(check);
    for (const auto& result : check->report.results)
      if (result.id == "port.error_rate" && result.subject == "mthca0/1")
        statuses.push_back(result.status);
  }
  CHECK(statuses == std::vector<Status>{Status::kWarn, Status::kWarn, Status::kFail});
  std::ifstream file(options.state);
  std::stringstream text;
  text << file.rdbuf();
  auto kept = parse_counter_snapshot(text.str());
  REQUIRE(kept);
  CHECK(kept->rate_history.at("mthca0/1") == "ddd");
  std::filesystem::remove(options.state);
  std::filesystem::remove(options.config);
}

TEST_CASE("config: [limits] sets the error rate limits and a bad one is named", "[config][rates]") {
  auto config = parse_config(
      "[limits]\nsymbol_error_per_hour = 120\nlink_error_recovery_per_second = 0.5\n"
      "local_link_integrity_errors_per_hour = 0\n",
      "rates.toml");
  REQUIRE(config);
  CHECK(config->error_rates.per_hour.at("symbol_error") == 120);
  CHECK(config->error_rates.per_hour.at("local_link_integrity_errors") == 0);
  CHECK(config->error_rates.per_second.at("link_error_recovery") == 0.5);
  const std::pair<const char*, const char*> bad[] = {
      {"[limits]\nsymbol_error_per_hour = -1\n",
       "bad.toml:2:25: limits.symbol_error_per_hour must be a number of errors per hour, 0 or "
       "more"},
      {"[limits]\nport_rcv_errors_per_second = \"many\"\n",
       "limits.port_rcv_errors_per_second must be a number of errors per second"},
      {"[limits]\nsymbol_error_per_hour = nan\n", "limits.symbol_error_per_hour must be"},
      {"[limits]\nsymbol_errors_per_hour = 5\n", "unknown key limits.symbol_errors_per_hour"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    auto refused = parse_config(text, "bad.toml");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains(message));
    CHECK(refused.error().message.find('\n') == std::string::npos);
  }
}
