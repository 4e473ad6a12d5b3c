#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "run_ibkit.hpp"

using ibkit::test::run_ibkit;

namespace {

std::string temp_file(const std::string& name, const std::string& content) {
  auto path =
      std::filesystem::temp_directory_path() / ("ibkit-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(path) << content;
  return path.string();
}

// A usage error: exit 2 and one line on stderr that contains `expected`.
void check_usage_error(const std::string& arguments, const std::string& expected) {
  auto outcome = run_ibkit("sweep " + arguments);
  INFO(arguments << "\n" << outcome.err);
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
  CHECK_THAT(outcome.err, Catch::Contains(expected));
  CHECK(outcome.out.empty());
}

}  // namespace

TEST_CASE("ibkit sweep: bad hosts, patterns, formats and rails are one-line usage errors") {
  const std::string hosts = temp_file("sweep-hosts", "a 127.0.0.1:1\nb 127.0.0.1:2 x\n");
  check_usage_error("--hosts " + hosts, hosts + ":2: expected ADDRESS[:PORT] or NAME");
  check_usage_error("--hosts /nonexistent/hosts",
                    "--hosts /nonexistent/hosts: no such file, and not a comma-separated list");
  const std::string list = "--hosts 127.0.0.1:1,127.0.0.1:2 ";
  check_usage_error(list + "--pattern mesh", "--pattern mesh: expected all-pairs, ring");
  const std::string pairs = temp_file("sweep-pairs", "127.0.0.1:1 127.0.0.1:9\n");
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
  // The pair options are bounded as ibkit pair bounds them, before anything runs.
  check_usage_error(list + "--test all --op read", "--op read does not apply to --test lat");
  check_usage_error(list + "--op rm", "--op");
  check_usage_error(list + "--size 64 --sweep", "excludes");
  check_usage_error(list + "--iters 5 --duration 1", "excludes");
  check_usage_error(list + "--qps 65", "--qps");
  check_usage_error(list + "--size 0", "--size");
  check_usage_error(list + "--duration 0.01", "--duration");
  // An --output that cannot be made is found before the sweep runs (nothing on stdout).
  const std::string blocker = temp_file("sweep-blocker", "a file where a directory should be");
  check_usage_error(list + "--output " + blocker + "/out",
                    "--output " + blocker + "/out: cannot create the directory");
}

TEST_CASE("ibkit sweep: a report file that cannot be written keeps the failing verdict, exit 1") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ibkit-" + std::to_string(getpid()) + "-sweep-out");
  std::filesystem::remove_all(dir);
  // The directory is writable, but report.json cannot be put in place: its temporary file's
  // name is taken by a directory.
  std::filesystem::create_directories(dir / "report.json.tmp");
  auto outcome = run_ibkit(
      "sweep --hosts 127.0.0.1:9,127.0.0.1:11 --test tcp --duration 0.1 "
      "--pair-deadline 3 --connect-timeout 1 --format json --output " +
      dir.string());
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("1 pairs (1 unreachable)"));
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit sweep: --output " + (dir / "report.json").string() + ": "));
  std::filesystem::remove_all(dir);
}

TEST_CASE("ibkit sweep: a derived pair deadline stays within what a default ibkit serve allows") {
  // Seed 002's send_bw -a -q 4 may need over 600 s a pair to drain on a slow link: the
  // deadline is capped at the default session limit, and the user is told how to change it.
  auto outcome = run_ibkit(
      "sweep --hosts 127.0.0.1:9,127.0.0.1:11 --test bw --op send --sweep --qps 4 "
      "--connect-timeout 1");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains("the pair deadline is 590 s"));
  CHECK_THAT(outcome.err, Catch::Contains("--pair-deadline"));
  CHECK_THAT(outcome.out, Catch::Contains("1 pairs (1 unreachable)"));
  // Given, it is kept as it is: no note.
  outcome = run_ibkit(
      "sweep --hosts 127.0.0.1:9,127.0.0.1:11 --test bw --op send --sweep --qps 4 "
      "--connect-timeout 1 --pair-deadline 900");
  CHECK(outcome.exit_code == 1);
  CHECK(outcome.err.empty());
}

TEST_CASE("ibkit sweep: nodes that are not there make unreachable pairs, exit 1, within time") {
  // Two ports nothing listens on, on loopback: every pair is refused at once.
  auto outcome = run_ibkit(
      "sweep --hosts 127.0.0.1:9,127.0.0.1:11 --test tcp --duration 0.1 "
      "--pair-deadline 3 --connect-timeout 1");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("1 pairs (1 unreachable)"));
  CHECK_THAT(outcome.out, Catch::Contains("Connection refused (round 1, 2 attempts"));
}
