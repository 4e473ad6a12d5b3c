#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "cli/pair_command.hpp"
#include "config/config_loader.hpp"
#include "control/measurement_request.hpp"
#include "model/pair_report.hpp"
#include "pair/pair_verdict.hpp"
#include "pair/run_loopback_tests.hpp"
#include "pair/run_pair_tests.hpp"
#include "report/pair_text.hpp"
#include "run_ibkit.hpp"
#include "schema/pair_report_json.hpp"
#include "skip_test.hpp"
#include "verbs/completion_events.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

using test::machine_has_rdma_devices;
using test::one_line;
using test::run_ibkit;
using test::skip_test;

PairOptions loopback_options() {
  PairOptions options;
  options.loopback = true;
  return options;
}

std::string error_of(const PairOptions& options) {
  auto checked = check_pair_options(options);
  return checked ? "" : checked.error().message;
}

SizeMeasurement latency_size(std::uint64_t bytes, double typical_us) {
  SizeMeasurement size;
  size.size = bytes;
  size.iterations = 1000;
  LatencyStats stats;
  stats.min_us = typical_us * 0.9;
  stats.typical_us = typical_us;
  stats.avg_us = typical_us;
  stats.p99_us = typical_us * 1.5;
  stats.p999_us = typical_us * 2;
  stats.max_us = typical_us * 3;
  size.latency = stats;
  return size;
}

SizeMeasurement bandwidth_size(std::uint64_t bytes, double mib_per_s) {
  SizeMeasurement size;
  size.size = bytes;
  size.iterations = 500;
  size.bytes = bytes * 500;
  size.seconds = 1;
  size.bandwidth = Throughput{mib_per_s, mib_per_s * 1048576 * 8 / 1e9, 0.001};
  return size;
}

VerbsMeasurement loopback_measurement(const std::string& test, const std::string& label,
                                      const std::string& completions, SizeMeasurement size) {
  VerbsMeasurement m;
  m.test = test;
  m.op = test == "lat" ? "send" : "write";
  m.completions = completions;
  m.loopback = label;
  m.local_device = label.substr(0, label.find('/')) + " port 1 (LID 3, MTU 4096)";
  m.remote_device = m.local_device;
  m.port_data_gbps = 100;
  m.sizes.push_back(size);
  return m;
}

PairOutcome outcome_of(VerbsMeasurement m) {
  PairOutcome outcome;
  outcome.test = m.test;
  outcome.error = m.error;
  outcome.verbs = std::move(m);
  return outcome;
}

const CheckResult* find_result(const CheckResults& results, const std::string& id,
                               const std::string& subject_part) {
  for (const auto& result : results) {
    if (result.id == id && result.subject.find(subject_part) != std::string::npos) return &result;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("loopback targets: every rail port against itself, a named device, or two HCAs",
          "[pair][verbs][cli]") {
  const std::vector<RailPort> rails{{"mlx5_0", 1}, {"mlx5_1", 1}, {"mthca0", 1}, {"mthca0", 2}};

  auto every = loopback_targets(rails, DeviceChoice{}, "");
  REQUIRE(every.size() == 4);
  for (std::size_t i = 0; i < rails.size(); ++i) {
    CHECK(every[i].a.device == rails[i].device);
    CHECK(every[i].a.port == rails[i].port);
    CHECK(every[i].b.device == rails[i].device);
    CHECK(every[i].b.port == rails[i].port);
    CHECK(every[i].a.rail == -1);
  }

  auto dual = loopback_targets(rails, DeviceChoice{"mthca0", 0, 3}, "");
  REQUIRE(dual.size() == 2);
  CHECK(dual[0].a.port == 1);
  CHECK(dual[1].b.port == 2);
  CHECK(dual[1].b.gid_index == 3);

  auto one_port = loopback_targets(rails, DeviceChoice{"mthca0", 2, -1}, "");
  REQUIRE(one_port.size() == 1);
  CHECK(one_port[0].a.port == 2);

  // Not a rail (an Ethernet NIC beside the fabric, or a port that is down): tried all the
  // same, so that open_device says what is wrong with it.
  auto not_rail = loopback_targets(rails, DeviceChoice{"mlx5_an0", 0, -1}, "");
  REQUIRE(not_rail.size() == 1);
  CHECK(not_rail[0].a.device == "mlx5_an0");
  CHECK(not_rail[0].b.device == "mlx5_an0");

  auto across = loopback_targets(rails, DeviceChoice{"mlx5_0", 0, -1}, "mlx5_1");
  REQUIRE(across.size() == 1);
  CHECK(across[0].a.device == "mlx5_0");
  CHECK(across[0].b.device == "mlx5_1");

  CHECK(loopback_targets({}, DeviceChoice{}, "").empty());
}

TEST_CASE("completion modes: poll, events, or both in that order, and tcp never asks for events",
          "[pair][verbs][cli]") {
  CHECK(completion_events_of(Completions::kPoll) == std::vector<bool>{false});
  CHECK(completion_events_of(Completions::kEvents) == std::vector<bool>{true});
  CHECK(completion_events_of(Completions::kBoth) == std::vector<bool>{false, true});

  PairPlan plan;
  plan.completions = Completions::kEvents;
  CHECK(build_pair_request(plan, "lat").events);
  CHECK(build_pair_request(plan, "bw").events);
  CHECK_FALSE(build_pair_request(plan, "tcp").events);
  plan.completions = Completions::kPoll;
  CHECK_FALSE(build_pair_request(plan, "lat").events);
}

TEST_CASE("a request carries events only when asked, so older servers still take the rest",
          "[pair][verbs][cli]") {
  TestRequest request;
  CHECK_FALSE(to_json(request).contains("events"));
  request.events = true;
  const auto message = to_json(request);
  CHECK(message.at("events") == true);
  auto read = request_from_json(message);
  REQUIRE(read.ok());
  CHECK(read->events);
  auto plain = request_from_json(to_json(TestRequest{}));
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->events);
  auto wrong = message;
  wrong["events"] = "yes";
  auto refused = request_from_json(wrong);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("events"));
}

TEST_CASE("events do not apply to a write latency test, whose ping-pong polls memory",
          "[pair][verbs][cli]") {
  CHECK(check_completion_events("lat", "send", true).ok());
  CHECK(check_completion_events("bw", "write", true).ok());
  CHECK(check_completion_events("bw", "read", true).ok());
  CHECK(check_completion_events("lat", "write", false).ok());
  auto refused = check_completion_events("lat", "write", true);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("--events"));
  CHECK_THAT(refused.error().message, Catch::Contains("--op send"));
}

TEST_CASE("pair options: PEER or --loopback, and what --loopback leaves out, each named",
          "[pair][verbs][cli]") {
  PairOptions two_node;
  two_node.peer = "node2";
  CHECK(error_of(two_node).empty());
  CHECK(error_of(loopback_options()).empty());

  CHECK_THAT(error_of(PairOptions{}),
             Catch::Contains("give PEER") && Catch::Contains("--loopback"));

  auto with_peer = loopback_options();
  with_peer.peer = "node2";
  CHECK_THAT(error_of(with_peer), Catch::Contains("drop PEER (node2)"));
  auto cm = loopback_options();
  cm.cm = true;
  CHECK_THAT(error_of(cm), Catch::Contains("drop --cm"));
  auto key = loopback_options();
  key.key_file = "/etc/ibkit/pair.key";
  CHECK_THAT(error_of(key), Catch::Contains("--key-file"));
  auto port = loopback_options();
  port.port = 18600;
  CHECK_THAT(error_of(port), Catch::Contains("--port"));
  auto tcp = loopback_options();
  tcp.workload.test = "tcp";
  CHECK_THAT(error_of(tcp), Catch::Contains("--test lat, bw or all"));
  auto all = loopback_options();
  all.workload.test = "all";
  CHECK(error_of(all).empty());

  auto peer_device = loopback_options();
  peer_device.peer_device = "mlx5_1";
  CHECK_THAT(error_of(peer_device), Catch::Contains("--peer-device needs --device"));
  peer_device.device = "mlx5_0";
  CHECK(error_of(peer_device).empty());
  auto stray = two_node;
  stray.peer_device = "mlx5_1";
  CHECK_THAT(error_of(stray), Catch::Contains("--peer-device is for --loopback"));

  auto both = two_node;
  both.events = true;
  both.completions = "both";
  CHECK_THAT(error_of(both), Catch::Contains("give one of them"));
  auto tcp_events = two_node;
  tcp_events.workload.test = "tcp";
  tcp_events.completions = "events";
  CHECK_THAT(error_of(tcp_events), Catch::Contains("TCP has no completion queue"));
}

TEST_CASE("ibkit pair: option mistakes are one-line usage errors naming the flag",
          "[pair][verbs][cli]") {
  struct Case {
    const char* arguments;
    const char* says;
  };
  const Case cases[] = {
      {"pair", "give PEER"},
      {"pair node2 --loopback", "drop PEER (node2)"},
      {"pair --loopback --test tcp", "--test lat, bw or all"},
      {"pair --loopback --cm", "drop --cm"},
      {"pair --loopback --peer-device mlx5_1", "--peer-device needs --device"},
      {"pair node2 --peer-device mlx5_1", "--peer-device is for --loopback"},
      {"pair --loopback --test lat --op write --events", "--op send"},
      {"pair --loopback --test all --op write --completions both", "--op send"},
      {"pair node2 --events --completions both", "give one of them"},
  };
  for (const auto& c : cases) {
    INFO(c.arguments);
    auto outcome = run_ibkit(c.arguments);
    CHECK(outcome.exit_code == 2);
    CHECK(one_line(outcome.err));
    CHECK_THAT(outcome.err, Catch::Contains(c.says));
  }
  CHECK(run_ibkit("pair --loopback --completions sometimes").exit_code == 2);
  auto help = run_ibkit("pair --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("--loopback") && Catch::Contains("--events") &&
                           Catch::Contains("--completions") && Catch::Contains("--peer-device"));
}

TEST_CASE("ibkit pair --loopback without an RDMA device fails each test, exit 3, saying why",
          "[pair][verbs][cli]") {
  if (machine_has_rdma_devices()) {
    skip_test("this machine has RDMA devices; the no-device case cannot be observed here");
    return;
  }
  auto outcome = run_ibkit("pair --loopback --test all --format json");
  CHECK(outcome.exit_code == 3);
  auto report = nlohmann::json::parse(outcome.out);
  CHECK(report.at("verdict") == "fail");
  CHECK(report.at("peer") == "loopback");
  REQUIRE(report.at("tests").size() == 2);  // lat and bw; tcp does not run in loopback
  for (const auto& test : report.at("tests")) {
    CHECK_THAT(test.at("error").get<std::string>(), Catch::Contains("no RDMA device"));
    CHECK(test.at("verbs").at("loopback") == "(no port)");
  }
  for (const auto& result : report.at("results")) {
    CHECK_THAT(result.at("subject").get<std::string>(), Catch::Contains("loopback (no port)"));
    CHECK_THAT(result.at("hint").get<std::string>(), Catch::Contains("on this node"));
  }
}

TEST_CASE("loopback check plan: latency 2 B send by iterations, bandwidth 64 KiB write for 2 s",
          "[pair][verbs][cli]") {
  const PairPlan plan = loopback_check_plan();
  REQUIRE(plan.tests == std::vector<std::string>{"lat", "bw"});
  CHECK(plan.completions == Completions::kPoll);
  // The requests' defaults (2 B send by iterations, 64 KiB write) are pair_plan_test's; the
  // loopback's own choice is the shorter bandwidth run.
  CHECK(build_pair_request(plan, "bw").duration_s == 2);
  CHECK(build_pair_request(plan, "lat").sizes == std::vector<std::uint64_t>{2});
}

TEST_CASE("loopback verdicts: every rail and mode judged apart, by the pair thresholds",
          "[pair][verbs][cli]") {
  Thresholds thresholds;
  thresholds.max_latency_us = 5;
  thresholds.min_bandwidth_gbps = 80;
  std::vector<PairOutcome> outcomes{
      outcome_of(loopback_measurement("lat", "mlx5_0/1", "poll", latency_size(2, 1.8))),
      outcome_of(loopback_measurement("lat", "mlx5_1/1", "poll", latency_size(2, 7.5))),
      outcome_of(loopback_measurement("lat", "mlx5_0/1", "events", latency_size(2, 4.0))),
      outcome_of(loopback_measurement("bw", "mlx5_0/1", "poll", bandwidth_size(65536, 11000))),
      outcome_of(loopback_measurement("bw", "mlx5_1/1", "poll", bandwidth_size(65536, 5000)))};
  const auto results = judge_pair(outcomes, thresholds);

  const auto* fast = find_result(results, "pair.latency", "lat send loopback mlx5_0/1");
  const auto* slow = find_result(results, "pair.latency", "loopback mlx5_1/1");
  const auto* events = find_result(results, "pair.latency", "lat send events loopback mlx5_0/1");
  REQUIRE(fast != nullptr);
  REQUIRE(slow != nullptr);
  REQUIRE(events != nullptr);
  CHECK(fast != events);
  CHECK(fast->status == Status::kPass);
  CHECK(slow->status == Status::kFail);
  CHECK(events->status == Status::kPass);
  const auto* good_bw = find_result(results, "pair.bandwidth", "loopback mlx5_0/1");
  const auto* bad_bw = find_result(results, "pair.bandwidth", "loopback mlx5_1/1");
  REQUIRE(good_bw != nullptr);
  REQUIRE(bad_bw != nullptr);
  CHECK(good_bw->status == Status::kPass);  // 11000 MiB/s = 92.3 Gb/s
  CHECK(bad_bw->status == Status::kFail);   // 5000 MiB/s = 41.9 Gb/s
  CHECK(any_failed(results));
}

TEST_CASE("a loopback test that could not run fails, naming its port and the cause on this node",
          "[pair][verbs][cli]") {
  auto broken = loopback_measurement("bw", "mlx5_1/1", "poll", bandwidth_size(65536, 1));
  broken.sizes.clear();
  broken.error =
      "ibv_reg_mr: Cannot allocate memory (pinned memory is limited by memlock, 64 KiB here)";
  const auto results = judge_pair({outcome_of(broken)}, Thresholds{});
  const auto* stopped = find_result(results, "pair.bw", "loopback mlx5_1/1");
  REQUIRE(stopped != nullptr);
  CHECK(stopped->status == Status::kFail);
  CHECK_THAT(stopped->observed, Catch::Contains("memlock"));
  CHECK_THAT(stopped->hint, Catch::Contains("on this node"));
  CHECK(find_result(results, "pair.bandwidth", "") == nullptr);  // nothing measured, no figure

  // Two nodes keep the subject a sweep tells a stopped test by.
  VerbsMeasurement two_node;
  two_node.test = "lat";
  two_node.op = "send";
  two_node.error = "no completion for 10 s";
  const auto pair_results = judge_pair({outcome_of(two_node)}, Thresholds{});
  REQUIRE(find_result(pair_results, "pair.lat", "test") != nullptr);
  CHECK(find_result(pair_results, "pair.lat", "test")->subject == "test");
}

TEST_CASE("text report: loopback ends, the completion mode, and events against polling",
          "[pair][verbs][cli]") {
  PairReport report;
  report.host = "node1";
  report.peer = "loopback";
  report.config_source = "defaults";
  report.outcomes = {
      outcome_of(loopback_measurement("lat", "rxe0/1", "poll", latency_size(2, 200))),
      outcome_of(loopback_measurement("lat", "rxe0/1", "events", latency_size(2, 300))),
      outcome_of(loopback_measurement("bw", "rxe0/1", "poll", bandwidth_size(65536, 8))),
      outcome_of(loopback_measurement("bw", "rxe0/1", "events", bandwidth_size(65536, 6)))};
  report.results = judge_pair(report.outcomes, Thresholds{});
  const std::string text = render_pair_text(report, false);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("ibkit pair node1 -> loopback"));
  CHECK_THAT(text, Catch::Contains("loopback rxe0/1: rxe0 port 1"));
  CHECK_THAT(text, Catch::Contains("latency send, 1 QP, polled completions"));
  CHECK_THAT(text, Catch::Contains("latency send, 1 QP, completion events"));
  CHECK_THAT(text, Catch::Contains("events vs polling"));
  CHECK_THAT(text,
             Catch::Contains("latency send loopback rxe0/1 2 B, typical: events 300.00 us, polling "
                             "200.00 us (x1.50)"));
  CHECK_THAT(text, Catch::Contains(
                       "bandwidth write loopback rxe0/1 65536 B: events 6.00 MiB/s, polling 8.00 "
                       "MiB/s (x0.75)"));

  // One mode alone: no comparison to make.
  report.outcomes.resize(1);
  CHECK_THAT(render_pair_text(report, false), !Catch::Contains("events vs polling"));
}

TEST_CASE("a pair report keeps the completion mode and the loopback ends, and old reports read too",
          "[pair][verbs][cli]") {
  PairReport report;
  report.host = "node1";
  report.peer = "loopback";
  report.generated_at = "2026-11-23T08:00:00Z";
  report.config_source = "defaults";
  report.outcomes = {
      outcome_of(loopback_measurement("lat", "mlx5_0/1-mlx5_1/1", "events", latency_size(2, 2)))};
  auto document = nlohmann::json(pair_report_json(report));
  auto read = pair_report_from_json(document);
  REQUIRE(read.ok());
  REQUIRE(read->outcomes.size() == 1);
  CHECK(read->outcomes[0].verbs->completions == "events");
  CHECK(read->outcomes[0].verbs->loopback == "mlx5_0/1-mlx5_1/1");

  auto& verbs = document["tests"][0]["verbs"];
  verbs.erase("completions");
  verbs.erase("loopback");
  auto old = pair_report_from_json(document);
  REQUIRE(old.ok());
  CHECK(old->outcomes[0].verbs->completions == "poll");
  CHECK(old->outcomes[0].verbs->loopback.empty());
}

TEST_CASE("[expect] loopback is a switch, off by default", "[pair][verbs][cli]") {
  auto defaults = parse_config("", "empty.toml");
  REQUIRE(defaults.ok());
  CHECK_FALSE(defaults->expect.loopback);
  auto on = parse_config("[expect]\nloopback = true\n", "on.toml");
  REQUIRE(on.ok());
  CHECK(on->expect.loopback);
  auto wrong = parse_config("[expect]\nloopback = \"yes\"\n", "wrong.toml");
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.error().message,
             Catch::Contains("wrong.toml:2:12: expect.loopback is a string; write true or false"));
}

TEST_CASE("ibkit check with [expect] loopback: skipped over a --root tree, failed without device",
          "[pair][verbs][cli]") {
  const auto file = std::filesystem::temp_directory_path() / "ibkit-loopback-check.toml";
  std::ofstream(file) << "[expect]\nloopback = true\n";
  auto fixture = run_ibkit("check --root " + std::string(ibkit::test::fixtures_dir()) +
                           "/cx4-qdr-gpu --format json --config " + file.string());
  auto fixture_report = nlohmann::json::parse(fixture.out);
  bool skipped = false;
  for (const auto& result : fixture_report.at("results")) {
    if (result.at("id") == "loopback") {
      skipped = result.at("status") == "skip";
      CHECK_THAT(result.at("hint").get<std::string>(), Catch::Contains("runs on the live node"));
    }
  }
  CHECK(skipped);

  if (machine_has_rdma_devices()) {
    skip_test("this machine has RDMA devices; the no-device loopback cannot be observed here");
    std::filesystem::remove(file);
    return;
  }
  auto live = run_ibkit("check --format json --config " + file.string());
  std::filesystem::remove(file);
  CHECK(live.exit_code == 3);
  auto report = nlohmann::json::parse(live.out);
  CHECK(report.at("verdict") == "fail");
  int failed_loopback = 0;
  for (const auto& result : report.at("results")) {
    const auto id = result.at("id").get<std::string>();
    if (id.rfind("loopback.", 0) != 0) continue;
    CHECK(result.at("status") == "fail");
    CHECK_THAT(result.at("observed").get<std::string>(), Catch::Contains("no RDMA device"));
    ++failed_loopback;
  }
  CHECK(failed_loopback == 2);  // loopback.lat and loopback.bw, never a pass
}

TEST_CASE("a wait for completion events ends at its deadline, and a dead channel is an error",
          "[pair][verbs][cli]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ibv_comp_channel channel{};
  channel.fd = fds[0];
  ibv_comp_channel* const channels[] = {&channel};

  const auto start = Deadline::Clock::now();
  auto slept = await_completion_events(channels, start + std::chrono::milliseconds(150));
  const auto waited = Deadline::Clock::now() - start;
  REQUIRE(slept.ok());
  CHECK(*slept == 0);
  CHECK(waited >= std::chrono::milliseconds(150));
  CHECK(waited < std::chrono::seconds(2));

  auto past = await_completion_events(channels, start);
  REQUIRE(past.ok());
  CHECK(*past == 0);

  ::close(fds[1]);  // the writer is gone: the channel hangs up
  auto hung_up =
      await_completion_events(channels, Deadline::Clock::now() + std::chrono::seconds(5));
  REQUIRE_FALSE(hung_up.ok());
  CHECK_THAT(hung_up.error().message, Catch::Contains("completion channel failed"));
  ::close(fds[0]);
}

}  // namespace ibkit
