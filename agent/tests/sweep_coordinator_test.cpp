#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "model/sweep_report.hpp"
#include "rules/blame.hpp"
#include "sweep/coordinator.hpp"
#include "sweep/network_runner.hpp"
#include "thread_room.hpp"

using namespace ibkit;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<SweepHost> hosts_of(int n) {
  std::vector<SweepHost> hosts;
  for (int i = 0; i < n; ++i) hosts.push_back({"n" + std::to_string(i), "10.9.0.1", 1});
  return hosts;
}

PairAttempt attempt(PairStatus status, const std::string& reason = "") {
  PairAttempt result;
  result.status = status;
  result.reason = reason;
  return result;
}

// A node that does not answer: as A the coordinator cannot reach it, as B A cannot.
PairAttempt dead(const SweepHost& a, const SweepHost& b, const std::string& node) {
  if (a.name == node) {
    PairAttempt result = attempt(PairStatus::kUnreachable, "node " + node + ": refused");
    result.a_silent = true;
    return result;
  }
  PairAttempt result = attempt(PairStatus::kFailed, "node " + node + " did not answer");
  result.b_silent = b.name == node;
  return result;
}

bool involves(const SweepHost& a, const SweepHost& b, const std::string& node) {
  return a.name == node || b.name == node;
}

struct Counted {
  std::mutex mutex;
  std::map<std::string, int> calls;  // by node
  void count(const SweepHost& a, const SweepHost& b) {
    std::lock_guard lock(mutex);
    ++calls[a.name];
    ++calls[b.name];
  }
};

SweepReport sweep(int n, const PairRunner& runner, SweepSettings settings = {}) {
  return run_sweep(hosts_of(n), all_pairs_schedule(n), settings, runner, {});
}

std::size_t count_status(const SweepReport& report, PairStatus status) {
  std::size_t count = 0;
  for (const auto& pair : report.pairs) count += pair.status == status ? 1 : 0;
  return count;
}

}  // namespace

TEST_CASE("a round's pairs run at once: 16 nodes take about rounds x pair time", "[sweep]") {
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  auto runner = [&](const SweepHost&, const SweepHost&, int, const Deadline&) {
    int now = ++running;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(20ms);
    --running;
    return attempt(PairStatus::kPass);
  };
  const auto start = Clock::now();
  SweepReport report = sweep(16, runner);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  REQUIRE(report.pairs.size() == 120);
  CHECK(count_status(report, PairStatus::kPass) == 120);
  CHECK(report.rounds == 15);
  CHECK(most.load() == 8);
  CHECK(wall < 15 * 0.02 * 3);  // serial would be 120 x 20 ms = 2.4 s
  CHECK(report.blamed.empty());
  CHECK_FALSE(sweep_failed(report));
  for (const auto& pair : report.pairs) CHECK(pair.attempts == 1);
}

TEST_CASE("a node dead from the start is blamed, tried twice and once again, costs its pairs",
          "[sweep]") {
  Counted counted;
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    counted.count(a, b);
    return involves(a, b, "n5") ? dead(a, b, "n5") : attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(8, runner);
  // Silenced after two pairs in the rounds, and again by its first in the recheck before the
  // retests (a frozen node would cost a whole pair deadline each).
  CHECK(counted.calls["n5"] == 3);
  CHECK(count_status(report, PairStatus::kPass) == 28 - 7);
  CHECK(count_status(report, PairStatus::kNotRun) == 5);
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n5");
  CHECK_THAT(report.blamed[0].reason, Catch::StartsWith("every pair failed or was slow"));
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kPass) continue;
    CHECK((pair.a == "n5" || pair.b == "n5"));
    if (pair.status == PairStatus::kNotRun) {
      CHECK(pair.reason == "not run: node n5 did not answer its last 2 pairs");
    } else {
      CHECK_THAT(pair.reason, Catch::StartsWith("blamed on n5: "));
    }
  }
}

TEST_CASE("a node that dies mid-sweep is blamed from the round it died", "[sweep]") {
  std::atomic<bool> killed{false};
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    return killed && involves(a, b, "n2") ? dead(a, b, "n2") : attempt(PairStatus::kPass);
  };
  SweepSettings settings;
  // Kill n2 once the coordinator reports round 6.
  auto progress = [&](const SweepProgress& now) { killed = killed || now.step >= 6; };
  SweepReport report = run_sweep(hosts_of(16), all_pairs_schedule(16), settings, runner, progress);
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n2");
  CHECK_THAT(report.blamed[0].reason, Catch::StartsWith("every pair from round "));
  int passed_before = 0;
  for (const auto& pair : report.pairs) {
    const bool mine = pair.a == "n2" || pair.b == "n2";
    if (!mine) CHECK(pair.status == PairStatus::kPass);
    if (mine && pair.status == PairStatus::kPass) ++passed_before;
  }
  CHECK(passed_before >= 4);
  CHECK(sweep_failed(report));
}

TEST_CASE("a node silent for two rounds that answers again is rechecked, not blamed", "[sweep]") {
  // A reboot or a flapping link: n5 answers nothing in its pairs of rounds 3 and 4, then answers
  // again. The rounds skip it once it was silent twice; the recheck before the retests runs
  // the pairs it was left out of.
  std::atomic<int> n5_calls{0};
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    if (!involves(a, b, "n5")) return attempt(PairStatus::kPass);
    const int call = ++n5_calls;  // n5 has one pair a round: its calls follow the rounds
    return call == 3 || call == 4 ? dead(a, b, "n5") : attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(8, runner);
  CHECK(report.blamed.empty());
  CHECK(count_status(report, PairStatus::kPass) == 28);
  CHECK(count_status(report, PairStatus::kNotRun) == 0);
  CHECK_FALSE(sweep_failed(report));
  CHECK(n5_calls == 4 + 2 + 3);  // rounds 1-4, the two retests, the three rechecks
  for (const auto& pair : report.pairs) {
    if (!(pair.a == "n5" || pair.b == "n5")) continue;
    INFO(pair.a << "-" << pair.b << " round " << pair.round << ": " << pair.reason);
    if (pair.round == 3 || pair.round == 4) {
      CHECK(pair.attempts == 2);
      CHECK_THAT(pair.reason, Catch::StartsWith("passed on retest; first attempt "));
    } else {
      CHECK(pair.attempts == 1);
      CHECK(pair.reason.empty());
    }
  }
}

TEST_CASE("most of a step unanswered at once is a fabric-wide event: no node is silenced",
          "[sweep]") {
  // A switch reboots during rounds 5 and 6: every pair of both goes unanswered. Counting that as
  // two silences per node would skip every node for the rest of the rounds.
  const Schedule schedule = all_pairs_schedule(16);
  std::set<std::pair<std::string, std::string>> blip;
  for (std::size_t round : {4u, 5u}) {
    for (const auto& pair : schedule[round]) {
      blip.insert({"n" + std::to_string(pair.a), "n" + std::to_string(pair.b)});
    }
  }
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> calls;  // in the order the runner saw them
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    std::lock_guard lock(mutex);
    const std::pair<std::string, std::string> pair{a.name, b.name};
    const bool first = std::find(calls.begin(), calls.end(), pair) == calls.end();
    calls.push_back(pair);
    return first && blip.count(pair) ? dead(a, b, b.name) : attempt(PairStatus::kPass);
  };
  SweepReport report = run_sweep(hosts_of(16), schedule, {}, runner, {});
  CHECK(report.blamed.empty());
  CHECK(count_status(report, PairStatus::kPass) == 120);
  // Every pair of rounds 7 on ran in its round: before the first retest of a blip pair.
  std::size_t first_retest = calls.size();
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (blip.count(calls[i]) &&
        std::find(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(i), calls[i]) !=
            calls.begin() + static_cast<std::ptrdiff_t>(i)) {
      first_retest = std::min(first_retest, i);
    }
  }
  CHECK(first_retest == 120);
  int noted = 0;
  for (const auto& pair : report.pairs) {
    if (!blip.count({pair.a, pair.b})) continue;
    CHECK(pair.attempts == 2);
    CHECK_THAT(pair.reason, Catch::StartsWith("passed on retest; first attempt failed: "));
    CHECK_THAT(pair.reason, Catch::Contains("8 of 8 pairs of this step went unanswered at once"));
    ++noted;
  }
  CHECK(noted == 16);
}

TEST_CASE("three dead nodes of eight are still three dead nodes, not a fabric-wide event",
          "[sweep]") {
  const std::set<std::string> gone{"n1", "n4", "n6"};
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    if (gone.count(a.name)) return dead(a, b, a.name);
    if (gone.count(b.name)) return dead(a, b, b.name);
    return attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(8, runner);
  REQUIRE(report.blamed.size() == 3);
  for (const auto& blame : report.blamed) CHECK(gone.count(blame.node) == 1);
  CHECK(count_status(report, PairStatus::kPass) == 10);  // the 5 live nodes' pairs
  for (const auto& pair : report.pairs) CHECK_THAT(pair.reason, !Catch::Contains("fabric-wide"));
}

TEST_CASE("a bad pair is retested once, at the end: a flake passes, a slow link stays slow",
          "[sweep]") {
  std::mutex mutex;
  std::map<std::string, int> tries;
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    std::lock_guard lock(mutex);
    const std::string key = a.name + "-" + b.name;
    const int attempt_number = ++tries[key];
    if (involves(a, b, "n1") && involves(a, b, "n4")) {
      return attempt(PairStatus::kSlow, "pair.bandwidth 3 Gb/s (expected >= 90 Gb/s)");
    }
    if (involves(a, b, "n0") && involves(a, b, "n3") && attempt_number == 1) {
      return attempt(PairStatus::kFailed, "tcp: reset");
    }
    return attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(6, runner);
  CHECK(report.blamed.empty());
  for (const auto& pair : report.pairs) {
    const bool slow_link = involves({pair.a, "", 0}, {pair.b, "", 0}, "n1") &&
                           involves({pair.a, "", 0}, {pair.b, "", 0}, "n4");
    const bool flaky = involves({pair.a, "", 0}, {pair.b, "", 0}, "n0") &&
                       involves({pair.a, "", 0}, {pair.b, "", 0}, "n3");
    if (slow_link) {
      CHECK(pair.status == PairStatus::kSlow);
      CHECK(pair.attempts == 2);
    } else if (flaky) {
      CHECK(pair.status == PairStatus::kPass);
      CHECK(pair.attempts == 2);
      CHECK(pair.reason == "passed on retest; first attempt failed: tcp: reset");
    } else {
      CHECK(pair.status == PairStatus::kPass);
      CHECK(pair.attempts == 1);
    }
  }
}

TEST_CASE("a node whose every pair is slow is blamed instead of its links", "[sweep]") {
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    return involves(a, b, "n3") ? attempt(PairStatus::kSlow, "pair.latency 90 us")
                                : attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(5, runner);
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n3");
  CHECK(count_status(report, PairStatus::kSlow) == 4);
}

TEST_CASE("each pair gets its deadline, and the sweep ends by its own", "[sweep]") {
  auto runner = [&](const SweepHost& a, const SweepHost&, int, const Deadline& deadline) {
    // n1 as A never answers: the runner holds on until the deadline, as a network wait would.
    if (a.name == "n1") {
      while (!deadline.expired()) std::this_thread::sleep_for(5ms);
      PairAttempt result = attempt(PairStatus::kTimedOut, "no result");
      result.a_silent = true;
      return result;
    }
    std::this_thread::sleep_for(50ms);
    return attempt(PairStatus::kPass);
  };
  SweepSettings settings;
  settings.pair_deadline_s = 0.2;
  settings.deadline = Deadline::after_seconds(1.0);
  settings.silent_limit = 100;  // keep trying n1, so its pairs run the sweep out of time
  const auto start = Clock::now();
  SweepReport report = sweep(16, runner, settings);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  CHECK(wall < 1.0 + 0.2 + 0.3);
  CHECK(count_status(report, PairStatus::kNotRun) > 0);
  bool deadline_reason = false;
  for (const auto& pair : report.pairs) {
    deadline_reason = deadline_reason || pair.reason == "not run: the sweep's --deadline passed";
    if (pair.status == PairStatus::kTimedOut) CHECK(pair.seconds < 0.3);
  }
  CHECK(deadline_reason);
  // n1's timed-out pairs keep their outcome though the deadline left no time to retest them.
  CHECK(count_status(report, PairStatus::kTimedOut) > 0);
}

TEST_CASE("a bad pair the deadline leaves no time to retest keeps its outcome and its blame",
          "[sweep]") {
  std::atomic<int> calls{0};
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline& deadline) {
    // 4 nodes, 2 pairs a round: the third round's pairs hold on until the sweep's deadline, so
    // the first pass runs in full and the retest finds the deadline passed.
    if (++calls > 4) {
      while (!deadline.expired()) std::this_thread::sleep_for(5ms);
    }
    if (a.name == "n0") {
      PairAttempt result = attempt(PairStatus::kTimedOut, "node n0 sent no result in time");
      result.a_silent = true;
      return result;
    }
    return involves(a, b, "n0") ? dead(a, b, "n0") : attempt(PairStatus::kPass);
  };
  SweepSettings settings;
  settings.deadline = Deadline::after_seconds(0.5);
  settings.silent_limit = 100;  // every pair of n0 is tried, none left out for silence
  SweepReport report = sweep(4, runner, settings);
  CHECK(calls.load() == 6);
  CHECK(count_status(report, PairStatus::kPass) == 3);
  CHECK(count_status(report, PairStatus::kNotRun) == 0);
  CHECK(count_status(report, PairStatus::kTimedOut) + count_status(report, PairStatus::kFailed) ==
        3);
  CHECK(count_status(report, PairStatus::kTimedOut) > 0);
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kPass) continue;
    CHECK(pair.attempts == 1);
    CHECK_THAT(pair.reason, Catch::EndsWith("; retest not run: the sweep's --deadline passed"));
  }
  REQUIRE(report.blamed.size() == 1);
  CHECK(report.blamed[0].node == "n0");
}

TEST_CASE("a retest the runner does not run keeps the first attempt's outcome", "[sweep]") {
  std::atomic<int> calls{0};
  std::atomic<int> tries{0};
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    ++calls;
    if (!involves(a, b, "n0") || !involves(a, b, "n1")) return attempt(PairStatus::kPass);
    return ++tries == 1 ? attempt(PairStatus::kSlow, "pair.bandwidth 3 Gb/s")
                        : attempt(PairStatus::kNotRun, "not run: too little time");
  };
  SweepReport report = sweep(3, runner);
  CHECK(calls.load() == 4);
  CHECK(count_status(report, PairStatus::kSlow) == 1);
  for (const auto& pair : report.pairs) {
    if (pair.status != PairStatus::kSlow) continue;
    CHECK(pair.reason == "pair.bandwidth 3 Gb/s; retest not run: too little time");
  }
}

TEST_CASE("rails: every pair on every rail, rail i against rail i", "[sweep]") {
  std::mutex mutex;
  std::vector<int> rails_seen;
  auto runner = [&](const SweepHost&, const SweepHost&, int rail, const Deadline&) {
    std::lock_guard lock(mutex);
    rails_seen.push_back(rail);
    return attempt(PairStatus::kPass);
  };
  SweepSettings settings;
  settings.rails = 3;
  SweepReport report = sweep(4, runner, settings);
  CHECK(report.pairs.size() == 6 * 3);
  CHECK(report.rails == 3);
  for (int rail = 0; rail < 3; ++rail) {
    CHECK(std::count(rails_seen.begin(), rails_seen.end(), rail) == 6);
  }
}

TEST_CASE("one bad pair blames nobody: a link cannot be told from its two ends", "[sweep]") {
  SweepReport report;
  report.nodes = {"a", "b", "c"};
  report.pairs = {{"a", "b", 0, 1, PairStatus::kFailed, "x", 1, 0, {}, {}, {}, {}},
                  {"a", "c", 0, 2, PairStatus::kPass, "", 1, 0, {}, {}, {}, {}},
                  {"b", "c", 0, 3, PairStatus::kPass, "", 1, 0, {}, {}, {}, {}}};
  blame_nodes(report);
  CHECK(report.blamed.empty());
  CHECK(report.pairs[0].reason == "x");
}

TEST_CASE("the network runner does not drive a pair whose tests no longer fit the time left",
          "[sweep]") {
  SweepSettings settings;
  settings.drive.tests = {"lat", "bw", "tcp"};
  settings.drive.duration_s = 1;  // 3 s of tests
  settings.drive.deadline_s = 60;
  settings.connect_timeout_s = 1;
  const PairRunner runner = network_runner(settings, std::nullopt, Thresholds{});
  // Nothing listens on port 9: a drive would come back unreachable, counted against node a.
  const SweepHost a{"a", "127.0.0.1", 9};
  const SweepHost b{"b", "127.0.0.1", 9};
  PairAttempt result = runner(a, b, 0, Deadline::after_seconds(2.5));
  CHECK(result.status == PairStatus::kNotRun);
  CHECK(result.reason == "not run: the sweep's --deadline left too little time");
  CHECK_FALSE(result.a_silent);
  // With the time to run, the same pair is driven (and found unreachable).
  result = runner(a, b, 0, Deadline::after_seconds(10));
  CHECK(result.status == PairStatus::kUnreachable);
}

TEST_CASE("a runner that throws makes its pair failed, with the message, and the sweep goes on",
          "[sweep]") {
  auto runner = [&](const SweepHost& a, const SweepHost& b, int, const Deadline&) {
    if (involves(a, b, "n1") && involves(a, b, "n2")) throw std::runtime_error("boom");
    return attempt(PairStatus::kPass);
  };
  SweepReport report = sweep(4, runner);
  CHECK(count_status(report, PairStatus::kPass) == 5);
  REQUIRE(count_status(report, PairStatus::kFailed) == 1);
  for (const auto& pair : report.pairs) {
    if (pair.status == PairStatus::kFailed) CHECK(pair.reason == "internal error: boom");
  }
}

TEST_CASE("pairs no thread can be started for are not run: the sweep does not abort", "[sweep]") {
  // In a child process whose address space has room for a few thread stacks only, a 16-node
  // round wants 8 threads. Exit 0: the sweep returned and left the rest out with the reason.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    test::leave_room_for_three_threads();
    auto runner = [&](const SweepHost&, const SweepHost&, int, const Deadline&) {
      std::this_thread::sleep_for(20ms);
      return attempt(PairStatus::kPass);
    };
    SweepSettings settings;
    settings.pair_deadline_s = 5;
    SweepReport report = sweep(16, runner, settings);
    bool reason = false;
    for (const auto& pair : report.pairs) {
      reason = reason || pair.reason.rfind("not run: could not start a thread (", 0) == 0;
    }
    const bool ok =
        reason && count_status(report, PairStatus::kPass) > 0 &&
        count_status(report, PairStatus::kPass) + count_status(report, PairStatus::kNotRun) ==
            report.pairs.size();
    _exit(ok ? 0 : 2);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  INFO("wait status " << status);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
