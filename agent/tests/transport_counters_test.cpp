// The transport counters (ports/N/hw_counters): read and judged by ibkit check on the mlx5 and
// rxe fixture trees and one without them, their limits in the configuration, their deltas
// through a wrap and a reset, and a test during which they rose, in ibkit pair and in a sweep.
#include "config/transport_counters.hpp"

#include <catch2/catch.hpp>

#include "config/config_loader.hpp"
#include "fixture_tree.hpp"
#include "pair/pair_verdict.hpp"
#include "report/check_prometheus.hpp"
#include "sweep/pair_attempt.hpp"
#include "sweep_sample.hpp"
#include "verbs/port_counters.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

constexpr const char* kRxeConfig = "[expect]\nlink_layer = \"Ethernet\"\n";
const std::string kRxeCounters = "sys/class/infiniband/rxe0/ports/1/hw_counters";

// A bandwidth test whose ends' counters moved by `local` and `remote`.
PairOutcome bw_outcome(std::map<std::string, std::int64_t> local,
                       std::map<std::string, std::int64_t> remote) {
  PairOutcome outcome = test::measured_pair("lab1", "lab3", 1, 1.5, 0.05).report->outcomes[1];
  outcome.verbs->local_counter_deltas = std::move(local);
  outcome.verbs->remote_counter_deltas = std::move(remote);
  return outcome;
}

const CheckResult* result_named(const CheckResults& results, std::string_view id) {
  for (const auto& result : results) {
    if (result.id == id) return &result;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("port.transport: rxe's retransmissions since boot are shown and pass under the defaults",
          "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  const auto run = check(tree, kRxeConfig);
  const auto& result = find_result(run, "port.transport", "rxe0/1");
  CHECK(result.status == Status::kPass);
  // Traffic (sent_pkts) is not shown; lifespan is the driver's cache setting, not a count.
  CHECK(result.observed == "completer_retry_err=31");
  const auto hcas = scan_hcas(tree.root());
  CHECK(hcas[0].ports[0].transport.values.count("lifespan") == 0);
  CHECK(hcas[0].ports[0].transport.values.at("sent_pkts") == 18234);
}

TEST_CASE("port.transport: exhausted retries are shown, not judged, and link downs over 10 fail",
          "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  // A peer that crashed exhausts the retries of every queue pair it had with this node.
  tree.write(kRxeCounters + "/retry_exceeded_err", "64");
  auto result = find_result(check(tree, kRxeConfig), "port.transport", "rxe0/1");
  CHECK(result.status == Status::kPass);
  CHECK(result.observed == "completer_retry_err=31, retry_exceeded_err=64");
  tree.write(kRxeCounters + "/link_downed", "11");
  result = find_result(check(tree, kRxeConfig), "port.transport", "rxe0/1");
  CHECK(result.status == Status::kFail);
  CHECK(result.observed == "link_downed 11 > 10, completer_retry_err=31, retry_exceeded_err=64");
  CHECK_THAT(result.hint, Catch::Contains("the link went down"));
  CHECK_THAT(result.hint, Catch::Contains("cannot be reset"));
}

TEST_CASE("port.transport: a limit in [limits] judges a counter the defaults only show",
          "[checks][sysfs][config]") {
  FixtureTree tree("rxe-lab");
  const auto run = check(tree, std::string(kRxeConfig) + "[limits]\ncompleter_retry_err = 30\n");
  const auto& result = find_result(run, "port.transport", "rxe0/1");
  CHECK(result.status == Status::kFail);
  CHECK(result.observed == "completer_retry_err 31 > 30");
  CHECK_THAT(result.hint, Catch::Contains("retransmissions over their limit"));
}

TEST_CASE("port.transport: a judged counter that is not a count fails, another one warns",
          "[checks][sysfs]") {
  FixtureTree tree("rxe-lab");
  tree.write(kRxeCounters + "/link_downed", "lots");
  auto result = find_result(check(tree, kRxeConfig), "port.transport", "rxe0/1");
  CHECK(result.status == Status::kFail);
  CHECK_THAT(result.observed, Catch::Contains("link_downed: \"lots\" is not a count"));
  tree.write(kRxeCounters + "/link_downed", "0");
  tree.make_directory(kRxeCounters + "/rcvd_seq_err_x");
  result = find_result(check(tree, kRxeConfig), "port.transport", "rxe0/1");
  CHECK(result.status == Status::kWarn);
  CHECK_THAT(result.observed, Catch::Contains("rcvd_seq_err_x: a directory"));
}

TEST_CASE("port.transport: mlx5's counters on Azure read as zero, and a driver without them skips",
          "[checks][sysfs]") {
  FixtureTree azure("azure-hbv3-cx6vf");
  const auto run = check(azure, "[expect]\nlink_layer = \"InfiniBand\"\n");
  const auto& result = find_result(run, "port.transport", "mlx5_ib0/1");
  CHECK(result.status == Status::kPass);
  CHECK(result.observed == "no retransmissions or transport errors");
  FixtureTree mthca("mthca-ddr-2port");
  const auto without = check(mthca, "[expect]\nports = [\"mthca0/1\"]\n");
  const auto& none = find_result(without, "port.transport", "mthca0/1");
  CHECK(none.status == Status::kSkip);
  CHECK_THAT(none.hint, Catch::Contains("no ports/1/hw_counters"));
}

TEST_CASE(
    "the limits table takes transport counters by name, and link_downed limits both directories",
    "[config]") {
  const Config config = config_from(
      "[limits]\ncompleter_retry_err = 100\nlink_downed = 2\n[thresholds]\n"
      "max_transport_delta = 50\n");
  CHECK(config.transport_limits.at("completer_retry_err") == 100);
  CHECK(config.transport_limits.at("link_downed") == 2);
  CHECK(config.counter_limits.at("link_downed") == 2);
  CHECK(config.transport_limits.count("retry_exceeded_err") == 0);
  CHECK(config.thresholds.max_transport_delta == 50);
  CHECK(Config{}.thresholds.max_transport_delta == kDefaultMaxTransportDelta);
  auto typo = parse_config("[limits]\ncompleter_retry_eror = 1\n", "ibkit.toml");
  REQUIRE_FALSE(typo.ok());
  CHECK_THAT(typo.error().message, Catch::StartsWith("ibkit.toml:2:1: unknown key "
                                                     "limits.completer_retry_eror"));
}

TEST_CASE("every transport counter has one kind, and only gaps and broken connections mean loss",
          "[config]") {
  const auto& table = transport_counters();
  for (std::size_t i = 1; i < table.size(); ++i) CHECK(table[i - 1].name < table[i].name);
  REQUIRE(find_transport_counter("rcvd_seq_err") != nullptr);
  CHECK(find_transport_counter("rcvd_seq_err")->kind == TransportKind::kSequenceError);
  CHECK(find_transport_counter("local_ack_timeout_err")->kind == TransportKind::kRetransmission);
  CHECK(find_transport_counter("lifespan") == nullptr);
  CHECK(transport_kind_means_loss(TransportKind::kSequenceError));
  CHECK(transport_kind_means_loss(TransportKind::kRetryExhausted));
  CHECK_FALSE(transport_kind_means_loss(TransportKind::kRetransmission));
  CHECK_FALSE(transport_kind_means_loss(TransportKind::kDuplicate));
  CHECK(transport_kind_is_trouble(TransportKind::kDuplicate));
  CHECK_FALSE(transport_kind_is_trouble(TransportKind::kTraffic));
  CHECK_FALSE(transport_kind_means_loss(TransportKind::kCongestion));
  CHECK_FALSE(transport_kind_means_loss(TransportKind::kTraffic));
  CHECK_FALSE(transport_kind_means_loss(TransportKind::kReceiverNotReady));
}

TEST_CASE("counter deltas: a rise, a 32-bit wrap, a reset, and a counter read only after",
          "[verbs]") {
  CHECK(counter_delta(100, 130) == 30);
  CHECK(counter_delta(4294967290ULL, 5) == 11);  // mlx5's 32-bit queue counter wrapped
  CHECK(counter_delta(1000, 7) == 7);            // reset: counts from 0
  CHECK(counter_delta(1ULL << 40, 3) == 3);      // no 32-bit counter was ever that high
  CHECK(counter_delta(4294967290ULL, 3000000000ULL) == 3000000000LL);  // no small rise: reset
  const auto deltas = counter_deltas({{"hw_counters/rcvd_seq_err", 4}},
                                     {{"hw_counters/rcvd_seq_err", 9}, {"symbol_error", 12}});
  CHECK(deltas == std::map<std::string, std::int64_t>{{"hw_counters/rcvd_seq_err", 5}});
}

TEST_CASE("pair.transport: sequence errors at either end fail, naming the end and the counter",
          "[pair]") {
  const auto results = judge_pair({bw_outcome({{"hw_counters/rcvd_seq_err", 400},
                                               {"hw_counters/completer_retry_err", 300},
                                               {"hw_counters/sent_pkts", 90000}},
                                              {{"hw_counters/out_of_seq_request", 51},
                                               {"hw_counters/retry_exceeded_err", 50}})},
                                  Thresholds{}, {"lab1", "lab3"});
  const CheckResult* transport = result_named(results, "pair.transport");
  REQUIRE(transport != nullptr);
  CHECK(transport->status == Status::kFail);
  // At the limit (50) is not over it; retransmissions and traffic are never judged.
  CHECK(transport->observed ==
        "lab1 rcvd_seq_err +400 (sequence errors), lab3 out_of_seq_request +51 (sequence errors)");
  CHECK(transport->expected ==
        "sequence errors and broken connections rise by <= 50 at either end");
}

TEST_CASE("pair.transport: a healthy lab test's retransmissions and duplicates pass", "[pair]") {
  // The busiest healthy test of a lab sweep (Soft-RoCE under emulation): ACKs late enough for
  // the retransmit timer, so retries and duplicates by the dozen, and one sequence error.
  const auto results = judge_pair({bw_outcome({{"hw_counters/completer_retry_err", 64},
                                               {"hw_counters/duplicate_request", 774},
                                               {"hw_counters/rcvd_seq_err", 1}},
                                              {{"hw_counters/completer_retry_err", 22},
                                               {"hw_counters/duplicate_request", 258},
                                               {"hw_counters/out_of_seq_request", 1}})},
                                  Thresholds{});
  REQUIRE(result_named(results, "pair.transport") != nullptr);
  CHECK(result_named(results, "pair.transport")->status == Status::kPass);
}

TEST_CASE("pair.transport: quiet counters pass, and ends without hw_counters say nothing",
          "[pair]") {
  const auto quiet = judge_pair(
      {bw_outcome({{"hw_counters/completer_retry_err", 2}}, {{"hw_counters/rcvd_pkts", 7}})},
      Thresholds{});
  REQUIRE(result_named(quiet, "pair.transport") != nullptr);
  CHECK(result_named(quiet, "pair.transport")->status == Status::kPass);
  const auto none = judge_pair({bw_outcome({{"symbol_error", 0}}, {})}, Thresholds{});
  CHECK(result_named(none, "pair.transport") == nullptr);
}

TEST_CASE("a sweep pair whose transport counters rose is slow, on the coordinator's names",
          "[sweep]") {
  DriveAttempt drive;
  drive.stage = DriveStage::kFinished;
  PairReport report;
  report.host = "lab1.internal";
  report.peer = "192.168.77.13";
  report.outcomes = {bw_outcome({}, {{"hw_counters/rcvd_seq_err", 498}})};
  drive.report = report;
  const SweepHost a{"lab1", "192.168.77.11", 18515};
  const SweepHost b{"lab3", "192.168.77.13", 18515};
  const PairAttempt attempt = judge_drive(a, b, drive, Thresholds{});
  CHECK(attempt.status == PairStatus::kSlow);
  CHECK(attempt.reason ==
        "pair.transport bw write: lab3 rcvd_seq_err +498 (sequence errors) (expected sequence "
        "errors and broken connections rise by <= 50 at either end)");
}

TEST_CASE("the check's metrics carry every transport counter with its kind", "[report]") {
  Hca hca;
  hca.name = "rxe0";
  Port port;
  port.number = 1;
  port.transport.present = true;
  port.transport.values = {{"rcvd_seq_err", 498}, {"sent_pkts", 9}, {"vendor_thing", 1}};
  hca.ports.push_back(port);
  const auto text = render_check_prometheus(CheckReport{"lab3", "", "", {}}, {hca});
  CHECK_THAT(text, Catch::Contains("ibkit_port_transport_counter_total{device=\"rxe0\",port=\"1\","
                                   "counter=\"rcvd_seq_err\",kind=\"sequence_errors\"} 498\n"));
  CHECK_THAT(text, Catch::Contains("counter=\"sent_pkts\",kind=\"traffic\"} 9\n"));
  CHECK_THAT(text, Catch::Contains("counter=\"vendor_thing\",kind=\"other\"} 1\n"));
}

TEST_CASE("a sweep pair whose test stalled names the sequence errors counted before it stopped",
          "[sweep][pair]") {
  DriveAttempt drive;
  drive.stage = DriveStage::kFinished;
  PairReport report;
  auto outcome = bw_outcome({{"hw_counters/rcvd_seq_err", 157}}, {});
  outcome.error =
      "bandwidth test (send queue): no completion for 10 s (the peer or the link is gone)";
  report.outcomes = {outcome};
  drive.report = report;
  const PairAttempt attempt = judge_drive({"lab3", "192.168.77.13", 18515},
                                          {"lab1", "192.168.77.11", 18515}, drive, Thresholds{});
  CHECK(attempt.status == PairStatus::kFailed);
  CHECK(attempt.reason ==
        "bw: bandwidth test (send queue): no completion for 10 s (the peer or the link is gone); "
        "lab3 rcvd_seq_err +157 (sequence errors)");
}
