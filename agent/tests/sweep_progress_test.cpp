// The sweep's progress node by node: which pairs a step waits for, which nodes went silent and
// which have pairs that did not pass, as the coordinator reports them and as the line reads.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "sweep/coordinator.hpp"
#include "sweep/sweep_summary.hpp"

using namespace ibkit;
using namespace std::chrono_literals;

namespace {

std::vector<SweepHost> hosts_of(int n) {
  std::vector<SweepHost> hosts;
  for (int i = 0; i < n; ++i) hosts.push_back({"n" + std::to_string(i), "10.9.0.1", 1});
  return hosts;
}

PairAttempt outcome(PairStatus status, bool b_silent = false) {
  PairAttempt attempt;
  attempt.status = status;
  attempt.b_silent = b_silent;
  return attempt;
}

}  // namespace

TEST_CASE("the progress names the pairs a step waits for, the silent and the failing nodes",
          "[sweep]") {
  // n3 never answers as B and fails as A; n1-n2 (or n2-n1) takes 600 ms whenever it runs.
  auto runner = [](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    if ((a.name == "n1" && b.name == "n2") || (a.name == "n2" && b.name == "n1")) {
      std::this_thread::sleep_for(600ms);
    }
    if (b.name == "n3") return outcome(PairStatus::kFailed, true);
    if (a.name == "n3") return outcome(PairStatus::kFailed);
    return outcome(PairStatus::kPass);
  };
  std::mutex mutex;
  std::vector<SweepProgress> seen;
  auto progress = [&](const SweepProgress& now) {
    std::lock_guard lock(mutex);
    seen.push_back(now);
  };
  run_sweep(hosts_of(6), all_pairs_schedule(6), SweepSettings{}, runner, progress);

  bool waited_for_slow_pair = false;
  bool saw_silent = false;
  for (const auto& now : seen) {
    for (const auto& pair : now.waiting_for) {
      if ((pair == "n1-n2" || pair == "n2-n1") && now.waiting_for.size() == 1 &&
          now.step_elapsed_s > 0.2) {
        waited_for_slow_pair = true;
      }
    }
    for (const auto& node : now.silent) {
      CHECK(node == "n3");
      saw_silent = true;
    }
  }
  CHECK(waited_for_slow_pair);
  CHECK(saw_silent);
  const SweepProgress& last = seen.back();
  CHECK(last.waiting_for.empty());
  REQUIRE_FALSE(last.not_passing.empty());
  // n3 is in every pair that did not pass; each of the others in at most its own with n3.
  CHECK(last.not_passing.front().first == "n3");
  for (std::size_t i = 1; i < last.not_passing.size(); ++i) {
    CHECK(last.not_passing[i].second <= last.not_passing.front().second);
    CHECK(last.not_passing[i].second <= 2);  // its first attempt and its retest
  }
}

TEST_CASE("the progress line and the headline show a node's name with its controls escaped",
          "[sweep]") {
  // With --launch a node's name is the host name it reported.
  SweepProgress progress;
  progress.silent = {"n5\x1b[2K\rok"};
  progress.not_passing = {
      {"n6\xc2\x9b"
       "2J",
       1}};
  CHECK(progress_nodes(progress) == "silent: n5\\x1b[2K\\rok; pairs not passing: n6\\u009b2J (1)");
  SweepReport report;
  report.pattern = "pairs:list\x1b]0;t\x07";
  CHECK_THAT(sweep_headline(report),
             Catch::StartsWith("ibkit sweep: pairs:list\\x1b]0;t\\x07, 0 nodes"));
}

TEST_CASE("the nodes' progress line cuts each list and says nothing when all is well", "[sweep]") {
  SweepProgress progress;
  CHECK(progress_nodes(progress).empty());
  progress.waiting_for = {"n1-n2", "n3-n4", "n5-n6", "n7-n8", "n9-n10", "n11-n12"};
  progress.step_elapsed_s = 12.4;
  progress.silent = {"n5"};
  progress.not_passing = {{"n3", 4}, {"n7", 1}};
  CHECK(progress_nodes(progress) ==
        "waiting 12 s for n1-n2, n3-n4, n5-n6, n7-n8 and 2 more; silent: n5; "
        "pairs not passing: n3 (4), n7 (1)");
  progress.waiting_for.clear();
  progress.silent.clear();
  CHECK(progress_nodes(progress, 1) == "pairs not passing: n3 (4) and 1 more");
}

TEST_CASE("the sweep's headline names the nodes it did not test, and says it failed", "[sweep]") {
  ibkit::SweepReport report;
  report.pattern = "topo:fabric.topo";
  report.nodes = {"h1", "h2", "h3", "h4"};
  report.rounds = 1;
  report.tests = {"tcp"};
  ibkit::SweepPair pair;
  pair.a = "h1";
  pair.b = "h4";
  pair.status = ibkit::PairStatus::kPass;
  pair.attempts = 1;
  report.pairs = {pair};
  CHECK_THAT(ibkit::sweep_headline(report),
             Catch::EndsWith("1 pair (1 pass) in 0 s; a pair took 0 s on average, 0 s at most; "
                             "FAIL: 2 of 4 nodes untested (in no pair that ran): h2, h3"));
  report.nodes = {"h1", "h4"};
  CHECK_THAT(ibkit::sweep_headline(report), !Catch::Contains("untested"));
}

TEST_CASE("the sweep's headline counts in words, and a sweep that ran nothing names no pattern",
          "[sweep]") {
  ibkit::SweepReport report;
  report.nodes = {"n1", "n2", "n3"};
  report.rails = 1;
  // Every node down before the schedule: no pattern, no tests, no rounds.
  CHECK_THAT(ibkit::sweep_headline(report),
             Catch::StartsWith("ibkit sweep: 3 nodes, 0 rounds x 1 rail: 0 pairs in 0 s"));
  report.pattern = "ring";
  report.tests = {"lat", "bw"};
  report.rounds = 1;
  report.rails = 2;
  CHECK_THAT(ibkit::sweep_headline(report),
             Catch::StartsWith("ibkit sweep: ring, 3 nodes, 1 round x 2 rails, tests lat,bw: 0 "
                               "pairs"));
}
