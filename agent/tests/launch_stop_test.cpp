// A launched sweep that SIGTERM (a Slurm job's time limit) or Ctrl-C stops before its first
// round: the checks running are killed, no server starts after it, the servers starting are
// stopped, and the report of what was measured is written with every pair not run and the
// signal named, the exit status the shell's for the signal.
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <variant>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "fake_launchers.hpp"
#include "launch/node_problem.hpp"
#include "launch/remote_check.hpp"
#include "launch/server_fleet.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"

using namespace ibkit;
using ibkit::test::FakeLaunchers;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A stop signal that comes `after` the object is made, as settings.stop_signal asks it.
struct LateSignal {
  Clock::time_point at;
  explicit LateSignal(std::chrono::milliseconds after) : at(Clock::now() + after) {}
  int operator()() const { return Clock::now() >= at ? SIGTERM : 0; }
};

// A launched sweep of `hosts` through the fake ssh on `port`, sent SIGTERM once its stderr
// holds `once_said`: how it ended, and what its --output folder held.
struct StoppedSweep {
  test::StoppedOutcome stopped;
  nlohmann::json report;             // report.json (discarded when there is none)
  bool reasons_name_signal = false;  // its pairs not run say the signal stopped them
  bool html_written = false;
};
StoppedSweep stop_launched_sweep(const std::string& hosts, const std::string& port,
                                 const std::string& once_said) {
  FakeLaunchers launchers;
  const auto output = test::scratch_path("launch-stopped");
  std::filesystem::remove_all(output);
  StoppedSweep sweep;
  sweep.stopped =
      test::run_ibkit_stopped("sweep --launch ssh --hosts " + hosts + " --port " + port +
                                  " --test tcp --duration 0.1 --output " + output.string() +
                                  " --remote-ibkit " + test::ibkit_binary(),
                              once_said, SIGTERM);
  const std::string json = test::read_text(output / "report.json");
  sweep.report = nlohmann::json::parse(json, nullptr, false);
  sweep.reasons_name_signal =
      json.find("not run: the sweep was stopped by SIGTERM") != std::string::npos;
  sweep.html_written = std::filesystem::exists(output / "report.html");
  std::filesystem::remove_all(output);
  return sweep;
}

}  // namespace

TEST_CASE("a stop signal kills a node's check in flight and starts none after it", "[launch]") {
  FakeLaunchers launchers;
  auto settings = test::settings_for(LaunchMethod::kSsh);
  settings.check_timeout_s = 60;
  settings.stop_signal = LateSignal(std::chrono::milliseconds(300));
  const auto start = Clock::now();
  auto hung = check_node(settings, "admin@hung1");
  REQUIRE(hung.ok());
  CHECK(seconds_since(start) < 10);  // not the 60 s a check may take
  REQUIRE(std::holds_alternative<NodeProblem>(hung->outcome));
  const auto& problem = std::get<NodeProblem>(hung->outcome);
  CHECK(problem.kind == NodeProblemKind::kStopped);
  CHECK(problem.message ==
        "hung1: ibkit check through ssh not run: the sweep was stopped by SIGTERM");
  const std::string calls = launchers.calls();
  auto after = check_node(settings, "cn1");
  REQUIRE(after.ok());
  CHECK(std::get<NodeProblem>(after->outcome).kind == NodeProblemKind::kStopped);
  CHECK(launchers.calls() == calls);  // no launcher ran for it
}

TEST_CASE("a stop signal ends the wait for servers to listen, and stops those not yet listening",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = test::settings_for(LaunchMethod::kSsh, test::ibkit_binary());
  settings.port = test::free_port();
  settings.listen_timeout_s = 60;
  settings.stop_signal = LateSignal(std::chrono::milliseconds(500));
  const std::string marker = "--port " + std::to_string(settings.port);
  std::atomic<int> ready{0};
  const auto start = Clock::now();
  auto fleet = ServerFleet::start(settings, {"mute1"}, SharedKey{std::string(64, 'c')},
                                  [&ready] { ++ready; });
  REQUIRE(fleet.ok());
  CHECK(seconds_since(start) < 10);  // not the 60 s listen timeout
  REQUIRE((*fleet)->problems()[0].has_value());
  CHECK((*fleet)->problems()[0]->kind == NodeProblemKind::kStopped);
  CHECK((*fleet)->problems()[0]->message ==
        "mute1: ibkit serve not started: the sweep was stopped by SIGTERM");
  CHECK(ready == 1);
  (*fleet)->stop();
  CHECK_FALSE(test::process_with(marker));
}

TEST_CASE("each server that listens or fails is counted as it does, for the progress line",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = test::settings_for(LaunchMethod::kSsh, test::ibkit_binary());
  settings.port = test::free_port();
  std::atomic<int> ready{0};
  auto fleet = ServerFleet::start(settings, {"local1", "down1"}, SharedKey{std::string(64, 'c')},
                                  [&ready] { ++ready; });
  REQUIRE(fleet.ok());
  CHECK(ready == 2);
  (*fleet)->stop();
}

TEST_CASE(
    "a launched sweep stopped by SIGTERM while its nodes are checked writes the report, "
    "every pair not run, exit 143",
    "[launch][cli]") {
  // hung1's check never ends: the signal comes while it runs.
  const auto sweep =
      stop_launched_sweep("127.0.0.2,127.0.0.3,hung1", std::to_string(test::free_port()),
                          "ibkit sweep: ibkit check on 3 nodes");
  const auto& outcome = sweep.stopped.outcome;
  INFO(outcome.err << outcome.out);
  CHECK(outcome.exit_code == 143);
  CHECK(sweep.stopped.seconds_to_end < 15);  // not the 120 s a node's check may take
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit sweep: stopped by SIGTERM before the first round") &&
                 Catch::Contains("ibkit sweep: stopped by SIGTERM: 0 pairs measured, 3 not run; "
                                 "the report is in ") &&
                 !Catch::Contains("starting ibkit serve"));
  CHECK(sweep.reasons_name_signal);
  CHECK(sweep.html_written);
  REQUIRE(sweep.report.is_object());
  CHECK(sweep.report["nodes"].size() == 3);
  CHECK(sweep.report["pairs"].size() == 3);
  bool hung_stopped = false;
  for (const auto& check : sweep.report["node_checks"]) {
    if (check["host"] == "hung1") hung_stopped = check["results"][0]["id"] == "launch.stopped";
  }
  CHECK(hung_stopped);
}

TEST_CASE(
    "a launched sweep stopped by SIGTERM while its servers start stops them and writes "
    "the report, exit 143",
    "[launch][cli]") {
  const std::string port = std::to_string(test::free_port());
  // slow1 is checked, but its server never says it listens: the signal comes while waiting.
  const auto sweep = stop_launched_sweep("127.0.0.2,127.0.0.3,slow1", port,
                                         "ibkit sweep: starting ibkit serve on 3 nodes");
  const auto& outcome = sweep.stopped.outcome;
  INFO(outcome.err << outcome.out);
  CHECK(outcome.exit_code == 143);
  CHECK(sweep.stopped.seconds_to_end < 15);  // not the 60 s a server has to say it listens
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit sweep: stopped by SIGTERM before the first round") &&
                 Catch::Contains("0 pairs measured, 3 not run"));
  CHECK_FALSE(test::process_with("--port " + port));
  CHECK(sweep.reasons_name_signal);
  CHECK(sweep.html_written);
  REQUIRE(sweep.report.is_object());
  CHECK(sweep.report["pairs"].size() == 3);
  // Each node's check ran: its report is kept, not replaced by the server it never started.
  REQUIRE(sweep.report["node_checks"].size() == 3);
  for (const auto& check : sweep.report["node_checks"])
    CHECK(check["results"][0]["id"] != "launch.stopped");
}
