#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/serve_command.hpp"
#include "cli/server_sides.hpp"
#include "control/session.hpp"
#include "control_test_support.hpp"
#include "model/sweep_report.hpp"
#include "sweep/coordinator.hpp"
#include "sweep/drive_client.hpp"
#include "sweep/network_runner.hpp"

using namespace ibkit;
using ibkit::test::ServerThread;

namespace {

const SharedKey kKey{"sweep-unit-test-key"};

// n agents on loopback, each an `ibkit serve` with the real server sides.
struct Agents {
  explicit Agents(int n) {
    ServerSettings settings;
    settings.key = kKey;
    settings.session_timeout = std::chrono::seconds(30);
    for (int i = 0; i < n; ++i) {
      servers.push_back(std::make_unique<ServerThread>(settings, server_sides(kKey)));
      hosts.push_back({"agent" + std::to_string(i), "127.0.0.1", servers.back()->port()});
    }
  }
  std::vector<std::unique_ptr<ServerThread>> servers;
  std::vector<SweepHost> hosts;
};

SweepSettings tcp_settings() {
  SweepSettings settings;
  // The agents are threads of this process on a CI machine's shared cores, beside whatever else
  // ctest runs: their TCP figures measure the scheduler (two pairs running at once were seen
  // 3-6x apart), not links. These cases test driving and judging by thresholds; the fleet rule
  // is tested on synthetic figures (fleet_verdict_test, sweep_fleet_test) and on namespaces
  // (tests/host/sweep.sh).
  settings.fleet.on = false;
  settings.drive.tests = {"tcp"};
  settings.drive.duration_s = 0.1;
  settings.drive.deadline_s = 10;
  settings.pair_deadline_s = 10;
  settings.connect_timeout_s = 3;
  return settings;
}

}  // namespace

TEST_CASE("a TCP sweep of four loopback agents: every pair driven and passed", "[sweep][cli]") {
  Agents agents(4);
  const SweepSettings settings = tcp_settings();
  SweepReport report = run_sweep(agents.hosts, all_pairs_schedule(4), settings,
                                 network_runner(settings, kKey, Thresholds{}), {});
  REQUIRE(report.pairs.size() == 6);
  for (const auto& pair : report.pairs) {
    INFO(pair.a << " -> " << pair.b << ": " << pair.reason);
    CHECK(pair.status == PairStatus::kPass);
    REQUIRE(pair.report);
    REQUIRE(pair.report->outcomes.size() == 1);
    REQUIRE(pair.report->outcomes[0].tcp);
    CHECK(pair.report->outcomes[0].tcp->bytes > 0);
  }
  CHECK_FALSE(sweep_failed(report));
}

TEST_CASE("a threshold the links miss makes their pairs slow, judged by the coordinator",
          "[sweep][cli]") {
  Agents agents(2);
  const SweepSettings settings = tcp_settings();
  Thresholds thresholds;
  thresholds.min_tcp_gbps = 1e6;
  SweepReport report = run_sweep(agents.hosts, all_pairs_schedule(2), settings,
                                 network_runner(settings, kKey, thresholds), {});
  REQUIRE(report.pairs.size() == 1);
  CHECK(report.pairs[0].status == PairStatus::kSlow);
  CHECK(report.pairs[0].attempts == 2);
  CHECK_THAT(report.pairs[0].reason, Catch::StartsWith("pair.tcp "));
}

TEST_CASE("a coordinator with the wrong key is refused: no pair runs", "[sweep][cli]") {
  Agents agents(3);
  const SweepSettings settings = tcp_settings();
  SweepReport report = run_sweep(agents.hosts, all_pairs_schedule(3), settings,
                                 network_runner(settings, SharedKey{"wrong"}, Thresholds{}), {});
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kNotRun) continue;  // its node refused twice already
    CHECK(pair.status == PairStatus::kUnreachable);
    CHECK_THAT(pair.reason, Catch::Contains("the peer does not hold this key"));
  }
  CHECK(report.pairs[0].status == PairStatus::kUnreachable);
  CHECK(sweep_failed(report));
}

TEST_CASE("a drive out of bounds is refused by the driven node, naming the field", "[sweep][cli]") {
  Agents agents(2);
  DriveRequest drive;
  drive.tests = {"tcp"};
  drive.peer = "127.0.0.1";
  drive.port = agents.hosts[1].port;
  drive.deadline_s = 3000;  // over the agent's 30 s session limit
  DriveAttempt attempt = drive_pair(agents.hosts[0], drive, kKey, 3, Deadline::after_seconds(10));
  CHECK(attempt.stage == DriveStage::kRefused);
  CHECK_THAT(attempt.error, Catch::Contains("drive field \"deadline_s\": 3000 s is over the"));
}

TEST_CASE("a drive whose peer is not there reports that the peer did not answer", "[sweep][cli]") {
  Agents agents(1);
  auto closed = Listener::open("127.0.0.1", 0);
  REQUIRE(closed.ok());
  DriveRequest drive;
  drive.tests = {"tcp"};
  drive.peer = "127.0.0.1";
  drive.port = closed->local().port;
  drive.deadline_s = 5;
  { auto gone = std::move(*closed); }  // nothing listens there now
  DriveAttempt attempt = drive_pair(agents.hosts[0], drive, kKey, 3, Deadline::after_seconds(10));
  REQUIRE(attempt.stage == DriveStage::kFinished);
  CHECK_FALSE(attempt.peer_answered);
  REQUIRE(attempt.report);
  CHECK_THAT(attempt.report->outcomes.at(0).error, Catch::Contains("refused"));
}

TEST_CASE(
    "a node asked before a sweep answers with its rails (none without RDMA) and its sessions' "
    "length",
    "[sweep][cli]") {
  Agents agents(1);
  auto answer = ask_node(agents.hosts[0], kKey, Deadline::after_seconds(5));
  REQUIRE(answer.ok());
  for (const auto& name : answer->rails) CHECK_FALSE(name.empty());
  // The agents' sessions are 30 s long: a new one has about that.
  REQUIRE(answer->session_s.has_value());
  CHECK(*answer->session_s > 25);
  CHECK(*answer->session_s <= 30);
}
