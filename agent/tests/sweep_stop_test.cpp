// A sweep that SIGTERM (Slurm's time limit) or Ctrl-C stops: the pairs in flight end as they
// would, the rest are not run and say why, the report of what was measured is written, and the
// exit status is the shell's for the signal (util/process/stop_signals.hpp, the coordinator's
// stop_signal).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "cli/server_sides.hpp"
#include "control/auth.hpp"
#include "control_test_support.hpp"
#include "model/sweep_report.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "sweep/coordinator.hpp"
#include "sweep_sample.hpp"
#include "util/process/stop_signals.hpp"

using namespace ibkit;

TEST_CASE("stop signals: noted while a StopSignals lives, the earlier action again after",
          "[util]") {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);  // Catch's own, in this process
  {
    const StopSignals stop;
    CHECK(StopSignals::received() == 0);
    raise(SIGTERM);  // noted, not the end of this test process
    CHECK(StopSignals::received() == SIGTERM);
    CHECK(stop_signal_name(StopSignals::received()) == "SIGTERM");
    // The first signal gave the default back: a second one ends the process at once.
    struct sigaction during {};
    sigaction(SIGTERM, nullptr, &during);
    CHECK(during.sa_handler == SIG_DFL);
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
  CHECK(stop_signal_name(SIGINT) == "SIGINT");
  CHECK(stop_signal_name(9) == "signal 9");
}

TEST_CASE("sweep: a stop signal leaves the pairs not begun not run, naming it, and no retest runs",
          "[sweep]") {
  std::atomic<int> attempts{0};
  std::atomic<int> signal{0};
  PairRunner runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    // The signal comes while the first round runs; its pairs end as they would.
    if (++attempts == 2) signal = SIGTERM;
    PairAttempt attempt;
    attempt.status = PairStatus::kPass;
    attempt.report = *test::measured_pair(a.name, b.name, 1, 1.5, 90).report;
    return attempt;
  };
  SweepSettings settings;
  settings.stop_signal = [&] { return signal.load(); };
  std::vector<SweepHost> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back({"n" + std::to_string(i), "10.9.0.1", 1});
  std::size_t bad_seen = 0;
  const SweepReport report = run_sweep(
      hosts, all_pairs_schedule(4), settings, runner,
      [&](const SweepProgress& progress) { bad_seen = std::max(bad_seen, progress.bad); });
  CHECK(report.stopped_by == SIGTERM);
  CHECK(bad_seen == 0);  // the pairs not run are no node's fault: progress counted them bad
  REQUIRE(report.pairs.size() == 6);
  int measured = 0;
  for (const auto& pair : report.pairs) {
    INFO(pair.a << "-" << pair.b << ": " << pair.reason);
    if (pair.status == PairStatus::kPass) {
      ++measured;
    } else {
      CHECK(pair.status == PairStatus::kNotRun);
      CHECK(pair.reason == "not run: the sweep was stopped by SIGTERM");
    }
  }
  CHECK(measured == 2);  // the first round's two pairs, and nothing after
  CHECK(attempts == 2);
  CHECK(sweep_failed(report));
}

TEST_CASE("ibkit sweep stopped by SIGTERM writes the report of what it measured, exit 143",
          "[sweep][cli]") {
  // Four agents on loopback, TCP pairs of about a second each: three rounds. SIGTERM in the
  // second round once ended the process with no report and no --output folder at all.
  const auto dir = test::scratch_path("sweep-stopped");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto key_file = dir / "key";
  std::ofstream(key_file) << std::string(64, 'b') << "\n";
  std::filesystem::permissions(
      key_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const auto key = load_key_file(key_file.string());
  REQUIRE(key);
  ServerSettings server;
  server.key = *key;
  server.session_timeout = std::chrono::seconds(300);
  std::vector<std::unique_ptr<test::ServerThread>> servers;
  std::string hosts;
  for (int i = 0; i < 4; ++i) {
    servers.push_back(std::make_unique<test::ServerThread>(server, server_sides(*key)));
    hosts += (i ? "," : "") + std::string("127.0.0.1:") + std::to_string(servers.back()->port());
  }
  // Once the first round's progress line is out (the handlers are in place by then, even
  // under a sanitizer on a busy machine), SIGTERM, as Slurm's time limit sends it.
  const auto stopped =
      test::run_ibkit_stopped("sweep --hosts " + hosts + " --key-file " + key_file.string() +
                                  " --test tcp --duration 1 --output " + (dir / "report").string(),
                              "ibkit sweep: round 1/", SIGTERM);
  const std::string& err = stopped.outcome.err;
  INFO(err << stopped.outcome.out);
  CHECK(stopped.outcome.exit_code == 143);
  CHECK_THAT(err, Catch::Contains("ibkit sweep: stopped by SIGTERM: ") &&
                      Catch::Contains(" not run; the report is in "));
  const std::string report = test::read_text(dir / "report" / "report.json");
  CHECK_THAT(report, Catch::Contains("not run: the sweep was stopped by SIGTERM"));
  CHECK(std::filesystem::exists(dir / "report" / "report.html"));
  std::filesystem::remove_all(dir);
}
