#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cli/server_sides.hpp"
#include "control/auth.hpp"
#include "control/socket.hpp"
#include "control_test_support.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"

using ibkit::test::run_ibkit;

namespace {

// A usage error: exit 2 and one line on stderr that contains `expected`.
void check_usage_error(const std::string& arguments, const std::string& expected) {
  auto outcome = run_ibkit("sweep " + arguments);
  INFO(arguments << "\n" << outcome.err);
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
  CHECK_THAT(outcome.err, Catch::Contains(expected));
  CHECK(outcome.out.empty());
}

// One agent on loopback, keyed, and the --hosts and --key-file words of a sweep of it and a
// port nothing listens on (127.0.0.1:9, second: all-pairs has it drive, and unreachable). A sweep
// of nodes none of which answers stops before its first round, so a failing sweep needs one
// that does.
struct OneAgentOfTwo {
  std::string key = ibkit::test::write_key_file("one-agent-of-two.key",
                                                "one-agent-of-two-key-0123456789abcdef\n", 0600);
  std::unique_ptr<ibkit::test::ServerThread> agent;
  std::string words;
  OneAgentOfTwo() {
    auto loaded = ibkit::load_key_file(key);
    REQUIRE(loaded);
    ibkit::ServerSettings settings;
    settings.key = *loaded;
    settings.session_timeout = std::chrono::seconds(600);  // ibkit serve's default
    agent = std::make_unique<ibkit::test::ServerThread>(settings, ibkit::server_sides(*loaded));
    words = "--hosts 127.0.0.1:" + std::to_string(agent->port()) + ",127.0.0.1:9 --key-file " +
            key + " ";
  }
  std::string port() const { return std::to_string(agent->port()); }
};

}  // namespace

TEST_CASE(
    "ibkit sweep looks every name up before the first round: two nodes that reach one "
    "agent, or a name nobody knows, stop it there",
    "[sweep][cli]") {
  // localhost is 127.0.0.1 (and ::1) in every /etc/hosts: the agent b names.
  auto same = run_ibkit("sweep --hosts a=localhost:1,b=127.0.0.1:1,c=127.0.0.1:2");
  INFO(same.err);
  CHECK(same.exit_code == 2);
  CHECK(same.err ==
        "ibkit sweep: --hosts: nodes a (localhost:1) and b (127.0.0.1:1) reach the same agent, "
        "127.0.0.1:1; list each node once\n");
  CHECK(same.out.empty());
  // No such name: exit 2 when the name service says so, 3 when it cannot answer (no DNS here).
  auto unknown =
      run_ibkit("sweep --hosts a=127.0.0.1:1,nowhere.invalid:2 --connect-timeout 1 --test tcp");
  INFO(unknown.err);
  CHECK((unknown.exit_code == 2 || unknown.exit_code == 3));
  CHECK_THAT(unknown.err, Catch::StartsWith("ibkit sweep: --hosts: node nowhere.invalid:2: the "
                                            "name service "));
  CHECK(unknown.err.find('\n') == unknown.err.size() - 1);
  CHECK(unknown.out.empty());
}

TEST_CASE("ibkit sweep: bad hosts, patterns, formats and rails are one-line usage errors",
          "[sweep][cli]") {
  const std::string hosts =
      ibkit::test::write_scratch_file("sweep-hosts", "a 127.0.0.1:1\nb 127.0.0.1:2 x\n");
  check_usage_error("--hosts " + hosts, hosts + ":2: expected ADDRESS[:PORT] or NAME");
  check_usage_error("--hosts /nonexistent/hosts",
                    "--hosts /nonexistent/hosts: no such file, and as a list it names one node; a "
                    "sweep needs at least two (NODE,NODE,... or a hosts file)");
  check_usage_error("--hosts a=127.0.0.1:1",
                    "--hosts a=127.0.0.1:1: no such file, and as a list "
                    "it names one node; a sweep needs at least two");
  const std::string list = "--hosts 127.0.0.1:1,127.0.0.1:2 ";
  check_usage_error(list + "--pattern mesh", "--pattern mesh: expected all-pairs, ring");
  const std::string pairs =
      ibkit::test::write_scratch_file("sweep-pairs", "127.0.0.1:1 127.0.0.1:9\n");
  check_usage_error(list + "--pattern pairs:" + pairs,
                    pairs + ":1: \"127.0.0.1:9\" is not in the hosts list");
  check_usage_error(list + "--format json", "--format json needs --output DIR");
  check_usage_error(list + "--format json,pdf --output /tmp/x", "--format pdf: expected json");
  check_usage_error(list + "--rails 0", "--rails 0: expected all or 1..64");
  check_usage_error(list + "--key-file /nonexistent/key", "/nonexistent/key");
  check_usage_error(list + "--test tcp --duration 5 --pair-deadline 5", "--pair-deadline");
  // The default duration needs time too: 23 sizes of 2 s do not fit 30 s.
  check_usage_error(list + "--test bw --sweep --pair-deadline 30",
                    "--pair-deadline 30 leaves no time beyond the tests' 46 s");
  // A --deadline the rounds cannot meet even at the tests' own time is refused up front.
  std::string sixteen = "--hosts 10.0.0.1:1";
  for (int node = 2; node <= 16; ++node) sixteen += ",10.0.0." + std::to_string(node) + ":1";
  check_usage_error(sixteen + " --test tcp --duration 1 --deadline 14",
                    "--deadline 14: 15 rounds on 1 rail need at least 15 s, each pair's tests "
                    "taking 1 s; raise --deadline, or choose a pattern with fewer rounds (ring has "
                    "2, about 2 s)");
  // Where no pattern fits, the way out is the --deadline the fewest rounds need (it suggested
  // ring+random:3, which has more rounds and did not fit either).
  check_usage_error(
      "--hosts 10.0.0.1:1,10.0.0.2:1,10.0.0.3:1,10.0.0.4:1 --test tcp --duration 4 "
      "--deadline 5",
      "--deadline 5: 3 rounds on 1 rail need at least 12 s, each pair's tests taking "
      "4 s; raise --deadline to at least 8 s (ring, the pattern of fewest rounds, "
      "has 2)");
  CHECK(run_ibkit("sweep " + sixteen + " --test tcp --duration 1 --deadline 15 --dry-run")
            .exit_code == 0);
  // The pair options are bounded as ibkit pair bounds them, before anything runs.
  check_usage_error(list + "--test all --op read", "--op read does not apply to --test lat");
  check_usage_error(list + "--op rm", "--op");
  check_usage_error(list + "--size 64 --sweep", "excludes");
  check_usage_error(list + "--iters 5 --duration 1", "excludes");
  check_usage_error(list + "--qps 65", "--qps");
  check_usage_error(list + "--size 0", "--size");
  check_usage_error(list + "--duration 0.01", "--duration");
  // An --output that cannot be made is found before the sweep runs (nothing on stdout).
  const std::string blocker =
      ibkit::test::write_scratch_file("sweep-blocker", "a file where a directory should be");
  check_usage_error(list + "--output " + blocker + "/out",
                    "--output " + blocker + "/out: cannot create the directory");
}

TEST_CASE("ibkit sweep --dry-run: valid options exit 0 without a node or a file, bad ones exit 2",
          "[sweep][cli]") {
  // Nothing listens on these ports: a dry run that reached for a node would fail or wait.
  const std::string list = "--hosts 127.0.0.1:1,127.0.0.1:2,127.0.0.1:3,127.0.0.1:4 ";
  const auto output = std::filesystem::path(ibkit::test::scratch_path("sweep-dry-run-out"));
  std::filesystem::remove_all(output);
  auto valid =
      run_ibkit("sweep " + list + "--rails all --pattern ring --test bw --qps 4 --output " +
                output.string() + " --dry-run");
  INFO(valid.err);
  CHECK(valid.exit_code == 0);
  CHECK_THAT(valid.out, Catch::Contains("the options are valid: 4 nodes, 2 rounds, bw both ways "
                                        "at once; nothing ran"));
  // --one-way measures from each pair's first node only, and cannot be asked with --bidir.
  auto one_way = run_ibkit("sweep " + list + "--one-way --dry-run");
  CHECK(one_way.exit_code == 0);
  CHECK_THAT(one_way.out, Catch::Contains("4 nodes, 3 rounds, bw and tcp one way; nothing ran"));
  CHECK_FALSE(std::filesystem::exists(output));
  // Two nodes are one round, and it says so ("1 rounds" once).
  CHECK_THAT(run_ibkit("sweep --hosts 127.0.0.1:1,127.0.0.1:2 --dry-run").out,
             Catch::Contains("the options are valid: 2 nodes, 1 round, bw and tcp"));
  // The same refusals as a real sweep, before anything runs.
  check_usage_error(list + "--qps 65 --dry-run", "--qps");
  check_usage_error(list + "--pattern random:x --dry-run", "--pattern random:x");
  check_usage_error(list + "--test all --op read --dry-run", "--op read does not apply");
  check_usage_error(list + "--bidir --one-way --dry-run", "--bidir excludes --one-way");
}

TEST_CASE("ibkit sweep: hosts and rails whose report could not be read back are refused",
          "[sweep][cli]") {
  // 600 nodes on 64 rails: matrices of 23,040,000 cells, more than a report holds.
  std::string hosts;
  for (int i = 0; i < 600; ++i) hosts += "127.0.0.1:" + std::to_string(20000 + i) + "\n";
  const std::string file = ibkit::test::write_scratch_file("sweep-many-hosts", hosts);
  check_usage_error("--hosts " + file + " --rails 64",
                    "--hosts and --rails: 600 nodes on 64 rails make 23040000 matrix cells; a "
                    "report holds at most 16777216");
  // Anything at the --hosts path is read as a hosts file, and named for what it is.
  check_usage_error("--hosts /dev/null --rails 1", "hosts file /dev/null is a character device");
}

TEST_CASE("ibkit sweep: a report file that cannot be written keeps the failing verdict, exit 1",
          "[sweep][cli]") {
  const auto dir = ibkit::test::scratch_path("sweep-out");
  std::filesystem::remove_all(dir);
  // The directory is writable, but report.json cannot be put in place: its name is taken by a
  // directory that is not empty, which no rename replaces.
  std::filesystem::create_directories(dir / "report.json" / "in-the-way");
  const OneAgentOfTwo nodes;
  auto outcome = run_ibkit("sweep " + nodes.words +
                           "--test tcp --duration 0.1 "
                           "--pair-deadline 3 --connect-timeout 1 --format json --output " +
                           dir.string());
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("1 pair (1 unreachable)"));
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit sweep: --output " + (dir / "report.json").string() + ": "));
  std::filesystem::remove_all(dir);
}

TEST_CASE("ibkit sweep: a derived pair deadline stays within what a default ibkit serve allows",
          "[sweep][cli]") {
  // Seed 002's send_bw -a -q 4 may need over 600 s a pair to drain on a slow link: the
  // deadline is capped at the default session limit, and the user is told how to change it.
  const OneAgentOfTwo nodes;
  auto outcome =
      run_ibkit("sweep " + nodes.words + "--test bw --op send --sweep --qps 4 --connect-timeout 1");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains("the pair deadline is 590 s"));
  CHECK_THAT(outcome.err, Catch::Contains("--pair-deadline"));
  CHECK_THAT(outcome.out, Catch::Contains("1 pair (1 unreachable)"));
  // Given, it is kept as it is: no note, but the agent's 600 s sessions cannot hold it.
  outcome = run_ibkit("sweep " + nodes.words +
                      "--test bw --op send --sweep --qps 4 --connect-timeout 1 "
                      "--pair-deadline 900");
  CHECK(outcome.exit_code == 3);
  CHECK(outcome.err.find("the pair deadline is") == std::string::npos);
  CHECK_THAT(outcome.err, Catch::StartsWith("ibkit sweep: the agents' sessions last 600 s"));
}

TEST_CASE("ibkit sweep: a node that is not there makes unreachable pairs, exit 1, within time",
          "[sweep][cli]") {
  // A port nothing listens on, on loopback, drives the one pair: it is refused at once.
  const OneAgentOfTwo nodes;
  auto outcome = run_ibkit("sweep " + nodes.words +
                           "--test tcp --duration 0.1 --pair-deadline 3 --connect-timeout 1");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("1 pair (1 unreachable)"));
  CHECK_THAT(
      ibkit::test::unwrapped(outcome.out),
      Catch::Contains("Connection refused: no ibkit serve listens there (round 1, 2 attempts"));
  // Not on a terminal: one plain progress line as each step ends, naming the nodes.
  CHECK_THAT(outcome.err, Catch::Contains("ibkit sweep: round 1/1, 1/1 pairs, 1 bad, ") &&
                              Catch::Contains("; pairs not passing: 127.0.0.1:" + nodes.port() +
                                              " (1), 127.0.0.1:9 (1)\n"));
  CHECK(outcome.err.find("\033[") == std::string::npos);
}

TEST_CASE("ibkit sweep --rails all: asking the nodes counts against the sweep's --deadline",
          "[sweep][cli]") {
  // Two nodes that take the connection and never answer (listeners nobody accepts from), and a
  // connect timeout far beyond the deadline: the sweep must end at its deadline, not after it.
  auto first = ibkit::Listener::open("127.0.0.1", 0);
  auto second = ibkit::Listener::open("127.0.0.1", 0);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  const auto key = ibkit::test::write_key_file("rails-deadline.key",
                                               "rails-key-of-the-deadline-case-0123456789\n", 0600);
  const auto start = std::chrono::steady_clock::now();
  auto outcome = run_ibkit("sweep --hosts 127.0.0.1:" + std::to_string(first->local().port) +
                           ",127.0.0.1:" + std::to_string(second->local().port) +
                           " --rails all --deadline 1 --connect-timeout 10 --test tcp "
                           "--key-file " +
                           key);
  const double took = ibkit::test::seconds_since(start);
  INFO(outcome.out << outcome.err);
  CHECK(took < 2.5);
  CHECK(outcome.exit_code == 3);
  CHECK_THAT(outcome.err, Catch::Contains("none of the 2 nodes answered before the first round") &&
                              Catch::Contains("(deadline passed)"));
  std::filesystem::remove(key);
}
