// `ibkit health` end to end against a fake scontrol (fake_scontrol.sh, node state in a file):
// a failing fixture node is drained with the reason, a passing one that ibkit drained is
// resumed, an admin's drain is never touched, and a hung scontrol is killed at the deadline.
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "fixture_tree.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "skip_test.hpp"

using ibkit::test::run_ibkit;
using ibkit::test::scratch_path;
using ibkit::test::write_scratch_file;

namespace {

const std::string kFakeScontrol =
    std::string(ibkit::test::source_dir()) + "/agent/tests/fake_scontrol.sh";
const std::string kFixture = std::string(ibkit::test::fixtures_dir()) + "/mthca-ddr-2port";
// mthca-ddr-2port fails when every port is required (port 2 has no cable) and passes with port 1
// only; by default health only warns about port 2, which never had a link.
const std::string kFailingConfig = "[expect]\nports = \"all\"\n";
const std::string kPassingConfig = "[expect]\nports = [\"mthca0/1\"]\nmin_rate_gbps = 16\n";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One node "c01" in the fake scontrol with `state` and `reason`; the environment of this test
// process (ctest runs each case as its own) points the fake at its files.
struct FakeSlurm {
  std::string state_file;
  std::string log_file;
  FakeSlurm(const std::string& state, const std::string& reason) {
    state_file = write_scratch_file("slurm-state", state + "\n" + reason + "\n");
    log_file = write_scratch_file("slurm-log", "");
    setenv("FAKE_SCONTROL_STATE", state_file.c_str(), 1);
    setenv("FAKE_SCONTROL_LOG", log_file.c_str(), 1);
    unsetenv("FAKE_SCONTROL_HANG");
    unsetenv("FAKE_SCONTROL_REPLY");
  }
  ~FakeSlurm() {
    std::filesystem::remove(state_file);
    std::filesystem::remove(log_file);
  }
  std::string state() const { return slurp(state_file); }
  std::string log() const { return slurp(log_file); }
};

// Each case its own lock file: ctest runs the cases at once. Its directory, which ibkit makes
// 0700 when missing, goes when the case ends.
const std::filesystem::path kLockDirectory = scratch_path("health-lock");
const std::string kLock = (kLockDirectory / "health.lock").string();
const struct LockDirectoryRemover {
  ~LockDirectoryRemover() { std::filesystem::remove_all(kLockDirectory); }
} kLockDirectoryRemover;

// kLock made as a run holding it would leave it: `content`, in a 0700 directory.
void plant_lock(const std::string& content) {
  std::filesystem::create_directories(kLockDirectory);
  std::filesystem::permissions(kLockDirectory, std::filesystem::perms::owner_all);
  std::ofstream(kLock) << content;
}

// kLock held as by another run that wrote `content` into it: the descriptor to close.
int hold_lock(const std::string& content) {
  plant_lock(content);
  const int fd = open(kLock.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(flock(fd, LOCK_EX | LOCK_NB) == 0);
  return fd;
}

ibkit::test::Outcome health(const std::string& config, const std::string& extra = "") {
  const std::string config_file = write_scratch_file("health.toml", config);
  return run_ibkit("health --root " + kFixture + " --config " + config_file + " --node c01" +
                   " --scontrol " + kFakeScontrol +
                   (extra.find("--lock ") == std::string::npos ? " --lock " + kLock : "") + extra);
}

}  // namespace

TEST_CASE("health: a failing node is drained with the ibkit reason and the NHC line",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out,
             Catch::Contains("ERROR: ibkit: Health check failed: port.state mthca0/2"));
  CHECK(slurm.state().starts_with("IDLE+DRAIN\nibkit: port.state mthca0/2 "));
  CHECK_THAT(slurm.log(), Catch::Contains("update | NodeName=c01 | State=DRAIN | Reason=ibkit: "
                                          "port.state mthca0/2 "));
}

// The commonest dual-port layout, the second port never cabled: `ports = "all"` by default
// drained such a node (the check still fails it: seed 000's first finding).
TEST_CASE("health: by default a port that never had a link is a warning, and the node stays up",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  auto outcome = health("");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(slurm.log(), !Catch::Contains("update"));
  CHECK(slurm.state() == "IDLE\n\n");
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit health: warning: port.state mthca0/2 DOWN/Polling: "
                             "this port has had no link since boot"));
  const auto check = run_ibkit("check --root " + kFixture + " --config " +
                               write_scratch_file("health-default.toml", "") + " --format json");
  CHECK(check.exit_code == 1);  // ibkit check keeps failing it
}

namespace {

// `ibkit health` on a failing node c01 whose scontrol answers `show node` as FAKE_SCONTROL_REPLY
// says (fake_scontrol.sh): the run must end with exit 2 and one line on stderr, and leave the
// node as it was. Returns that line.
std::string refused_reply(const std::string& reply) {
  FakeSlurm slurm("IDLE", "");
  setenv("FAKE_SCONTROL_REPLY", reply.c_str(), 1);
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 2);
  CHECK(ibkit::test::one_line(outcome.err));
  CHECK_THAT(slurm.log(), !Catch::Contains("update"));
  CHECK(slurm.state() == "IDLE\n\n");
  return outcome.err;
}

}  // namespace

TEST_CASE("health: scontrol describing another node than asked changes nothing, naming both",
          "[slurm][cli]") {
  // Asked about c01, a reply about victim01 drained victim01.
  CHECK_THAT(refused_reply("other victim01"),
             Catch::Contains("described node victim01, not c01; nothing changed") &&
                 Catch::Contains("--node"));
}

TEST_CASE("health: scontrol describing two nodes changes nothing", "[slurm][cli]") {
  // A host list given as --node answered with two records: the first was drained, the rest
  // went unmentioned.
  CHECK_THAT(refused_reply("two"),
             Catch::Contains("described 2 nodes; ibkit health judges this node alone"));
}

TEST_CASE("health: what scontrol printed is quoted short, its control characters escaped",
          "[slurm][cli]") {
  const std::string error = refused_reply("garbage");
  CHECK_THAT(error, Catch::Contains("no NodeName=") && Catch::Contains("\\x1b[2J\\rjunk"));
  CHECK(error.find('\x1b') == std::string::npos);
  CHECK(error.size() < 600);  // the reply was 5,000 bytes on one line
}

TEST_CASE("health: a second failing run leaves the same ibkit drain alone", "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  REQUIRE(health(kFailingConfig).exit_code == 1);
  const std::string drained = slurm.state();
  auto again = health(kFailingConfig);
  CHECK(again.exit_code == 1);
  CHECK(slurm.state() == drained);
  // One update in all: the second run only looked.
  const std::string log = slurm.log();
  CHECK(log.find("update") == log.rfind("update"));
}

TEST_CASE("health: a passing node that ibkit drained is resumed", "[slurm][cli]") {
  FakeSlurm slurm("IDLE+DRAIN", "ibkit: port.state mthca0/1 DOWN/Polling");
  auto outcome = health(kPassingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.out, !Catch::Contains("ERROR"));
  CHECK_THAT(outcome.out, Catch::Contains("c01 resumed"));
  CHECK(slurm.state() == "IDLE\n\n");
  CHECK_THAT(slurm.log(), Catch::Contains("update | NodeName=c01 | State=RESUME | "));
}

TEST_CASE("health: a passing node in service is left alone, quietly", "[slurm][cli]") {
  FakeSlurm slurm("MIXED", "");
  auto outcome = health(kPassingConfig);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out.empty());
  CHECK_THAT(slurm.log(), !Catch::Contains("update"));
}

TEST_CASE("health --state: a port whose errors rise faster than its budget drains the node",
          "[slurm][cli][rates]") {
  // port.error_rate joined the checks ibkit health runs: mthca0/1 is 4X DDR (16 Gb/s), whose
  // bit error rate budget is 57.6 symbol errors an hour; 1000 since the last run fail it.
  FakeSlurm slurm("IDLE", "");
  ibkit::test::FixtureTree tree("mthca-ddr-2port");
  // A total since boot of 1000 within [limits]: only the rate can fail the node.
  const std::string config =
      write_scratch_file("health-rates.toml", kPassingConfig + "[limits]\nsymbol_error = 100000\n");
  const std::string state = scratch_path("health-rates-state.json").string();
  const std::string command = "health --root " + tree.path().string() + " --config " + config +
                              " --node c01 --scontrol " + kFakeScontrol + " --lock " + kLock +
                              " --state " + state;
  REQUIRE(run_ibkit(command).exit_code == 0);  // the first run keeps the counters
  CHECK(slurm.state() == "IDLE\n\n");
  tree.write("sys/class/infiniband/mthca0/ports/1/counters/symbol_error", "1000");
  auto outcome = run_ibkit(command);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK(slurm.state().starts_with("IDLE+DRAIN\nibkit: port.error_rate mthca0/1 "));
  std::filesystem::remove(config);
  std::filesystem::remove(state);
}

TEST_CASE("health: a node an admin drained stays drained on pass and on fail", "[slurm][cli]") {
  FakeSlurm slurm("IDLE+DRAIN", "maintenance");
  auto passing = health(kPassingConfig);
  CHECK(passing.exit_code == 0);
  auto failing = health(kFailingConfig);
  INFO(failing.out << failing.err);
  CHECK(failing.exit_code == 1);
  CHECK_THAT(failing.out, Catch::Contains("left alone") && Catch::Contains("maintenance"));
  CHECK(slurm.state() == "IDLE+DRAIN\nmaintenance\n");
  CHECK_THAT(slurm.log(), !Catch::Contains("update"));
}

TEST_CASE("health: an admin's drain reason is quoted with its control characters escaped",
          "[slurm][cli]") {
  // Whoever drained the node wrote the reason; ibkit's note quotes it on stdout.
  FakeSlurm slurm("IDLE+DRAIN", "maint\x1b[2K\rok");
  auto failing = health(kFailingConfig);
  INFO(failing.out << failing.err);
  CHECK_THAT(failing.out,
             Catch::Contains("left alone") && Catch::Contains("Reason=maint\\x1b[2K\\rok"));
  CHECK(failing.out.find('\x1b') == std::string::npos);
  CHECK(failing.out.find('\r') == std::string::npos);
}

TEST_CASE("health: a hung scontrol is killed at the deadline, exit 2 naming --scontrol",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  setenv("FAKE_SCONTROL_HANG", "1", 1);
  const auto start = std::chrono::steady_clock::now();
  auto outcome = health(kFailingConfig, " --scontrol-timeout 2");
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 2);
  CHECK(seconds < 8);
  CHECK(ibkit::test::one_line(outcome.err));
  CHECK_THAT(outcome.err,
             Catch::Contains("did not answer within 2 s") && Catch::Contains("--scontrol"));
}

TEST_CASE("health: the default deadline is 10 s", "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  setenv("FAKE_SCONTROL_HANG", "1", 1);
  const auto start = std::chrono::steady_clock::now();
  auto outcome = health(kFailingConfig);
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(outcome.exit_code == 2);
  CHECK(seconds >= 9.5);
  CHECK(seconds < 20);
  CHECK_THAT(outcome.err, Catch::Contains("within 10 s"));
}

TEST_CASE("health: a missing scontrol is one line, exit 2, naming --scontrol and the fix",
          "[slurm][cli]") {
  auto outcome =
      run_ibkit("health --root " + kFixture + " --config " +
                write_scratch_file("no-scontrol.toml", kFailingConfig) + " --node c01 --lock " +
                kLock + " --scontrol " + scratch_path("no-scontrol").string());
  CHECK(outcome.exit_code == 2);
  CHECK(ibkit::test::one_line(outcome.err));
  CHECK_THAT(outcome.err, Catch::Contains("not found") && Catch::Contains("--scontrol PATH") &&
                              Catch::Contains("--scheduler none"));
}

TEST_CASE("health --scheduler none: the NHC line and exit 1 on failure, silence and 0 on pass",
          "[slurm][cli]") {
  const std::string failing_config = write_scratch_file("none-fail.toml", kFailingConfig);
  auto failing = run_ibkit("health --scheduler none --root " + kFixture + " --config " +
                           failing_config + " --lock " + kLock + " --scontrol /nonexistent");
  CHECK(failing.exit_code == 1);
  CHECK(ibkit::test::one_line(failing.out));
  CHECK(failing.out.starts_with("ERROR: ibkit: Health check failed: port.state mthca0/2"));
  const std::string passing_config = write_scratch_file("none-pass.toml", kPassingConfig);
  auto passing = run_ibkit("health --scheduler none --root " + kFixture + " --config " +
                           passing_config + " --lock " + kLock);
  CHECK(passing.exit_code == 0);
  CHECK(passing.out.empty());
  CHECK(passing.err.empty());
}

TEST_CASE("health: an scontrol that fails is exit 2, one line with its exit status",
          "[slurm][cli]") {
  auto outcome = run_ibkit("health --root " + kFixture + " --config " +
                           write_scratch_file("false-scontrol.toml", kFailingConfig) +
                           " --node c99 --lock " + kLock + " --scontrol /bin/false");
  CHECK(outcome.exit_code == 2);
  CHECK(ibkit::test::one_line(outcome.err));
  CHECK_THAT(outcome.err,
             Catch::Contains("/bin/false -o show node c99") && Catch::Contains("exited 1"));
}

TEST_CASE("health --state: a link that flapped since the last run drains the node, naming it",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  ibkit::test::FixtureTree tree("mthca-ddr-2port");
  const std::string config_file = write_scratch_file("health.toml", kPassingConfig);
  const std::string state = scratch_path("health-counters.json").string();
  const std::string run = "health --root " + tree.path().string() + " --config " + config_file +
                          " --node c01 --scontrol " + kFakeScontrol + " --state " + state;
  REQUIRE(run_ibkit(run).exit_code == 0);  // the baseline
  tree.write("sys/class/infiniband/mthca0/ports/1/counters/link_downed", "1");
  auto flapped = run_ibkit(run);
  INFO(flapped.out << flapped.err);
  CHECK(flapped.exit_code == 1);
  CHECK(slurm.state().starts_with("IDLE+DRAIN\nibkit: port.flaps mthca0/1 link_downed +1"));
  auto quiet = run_ibkit(run);  // no flap since: ibkit's own drain is lifted
  CHECK(quiet.exit_code == 0);
  CHECK(slurm.state().starts_with("IDLE\n"));
  std::filesystem::remove(state);
}

TEST_CASE("health: a run while another holds the lock changes nothing and exits 0 at once",
          "[slurm][cli]") {
  // Slurm starts the health program every interval, ended or not: runs must not pile up, each
  // holding the RDMA device and the CPU, until none finishes.
  FakeSlurm slurm("IDLE", "");
  const int fd = hold_lock("ibkit 4242\n");
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.err, Catch::Contains("another run holds " + kLock + " (pid 4242)"));
  CHECK(slurm.log().empty());
  CHECK(slurm.state() == "IDLE\n\n");
  close(fd);
  // The lock released, the same failing node is drained.
  CHECK(health(kFailingConfig).exit_code == 1);
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
  std::filesystem::remove(kLock);
}

TEST_CASE("health: a lock file that cannot be opened is named, and the node is judged anyway",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  auto outcome = health(kFailingConfig, " --lock /nonexistent-dir/sub/ibkit-health.lock");
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains("--lock /nonexistent-dir/sub/ibkit-health.lock: "));
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
}

TEST_CASE("health: a lock held past --lock-limit is a stuck run, and the node fails on it",
          "[slurm][cli]") {
  // A run that never ends used to keep every later one judging nothing and exiting 0: the
  // node stayed in service however broken it was.
  FakeSlurm slurm("IDLE", "");
  const int fd = hold_lock("ibkit 4242\n");
  std::filesystem::last_write_time(
      kLock, std::filesystem::file_time_type::clock::now() - std::chrono::seconds(700));

  auto patient = health(kPassingConfig, " --lock-limit 1000");
  INFO(patient.out << patient.err);
  CHECK(patient.exit_code == 0);
  CHECK(slurm.state() == "IDLE\n\n");

  auto outcome = health(kPassingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("ERROR: ibkit: Health check failed: health run pid "
                                          "4242 stuck: it has held " +
                                          kLock + " for 70"));
  CHECK_THAT(outcome.out, Catch::Contains("(--lock-limit 600)"));
  CHECK(slurm.state().starts_with("IDLE+DRAIN\nibkit: health run pid 4242 stuck"));
  close(fd);
}

TEST_CASE("health: a lock in a directory others can write is not taken, and the node is judged",
          "[slurm][cli]") {
  // Anyone could create the lock there first and hold it against every root run.
  FakeSlurm slurm("IDLE", "");
  std::filesystem::remove_all(kLockDirectory);
  std::filesystem::create_directories(kLockDirectory);
  std::filesystem::permissions(kLockDirectory, std::filesystem::perms::all);
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err,
             Catch::Contains("ibkit health: --lock " + kLock + ": its directory " +
                             kLockDirectory.string() + " is writable by others (mode 0777)"));
  CHECK_FALSE(std::filesystem::exists(kLock));
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
}

TEST_CASE("health: a file that is not a lock is never written, and the node is judged",
          "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  plant_lock("PermitRootLogin no\n");
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains(kLock + " holds something other than a process id"));
  CHECK(slurp(kLock) == "PermitRootLogin no\n");
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
}

TEST_CASE("health: the lock is made 0600 in a directory made 0700", "[slurm][cli]") {
  FakeSlurm slurm("IDLE", "");
  std::filesystem::remove_all(kLockDirectory);
  REQUIRE(health(kPassingConfig).exit_code == 0);
  struct stat directory {};
  struct stat file {};
  REQUIRE(stat(kLockDirectory.c_str(), &directory) == 0);
  REQUIRE(stat(kLock.c_str(), &file) == 0);
  CHECK((directory.st_mode & 07777) == 0700);
  CHECK((file.st_mode & 07777) == 0600);
  CHECK(slurp(kLock).starts_with("ibkit "));
  // One an older ibkit made 0644, which any user could open and hold, is narrowed.
  REQUIRE(chmod(kLock.c_str(), 0644) == 0);
  REQUIRE(health(kPassingConfig).exit_code == 0);
  REQUIRE(stat(kLock.c_str(), &file) == 0);
  CHECK((file.st_mode & 07777) == 0600);
}

TEST_CASE("health: another program's pid file as --lock is neither rewritten nor narrowed",
          "[slurm][cli]") {
  // A running daemon's pid file: this test process, whose name is not ibkit.
  FakeSlurm slurm("IDLE", "");
  const std::string daemon_pid = std::to_string(getpid()) + "\n";
  plant_lock(daemon_pid);
  REQUIRE(chmod(kLock.c_str(), 0644) == 0);
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains(kLock + " holds the process id of a running program "
                                                  "other than ibkit") &&
                              Catch::Contains("left as it was"));
  CHECK(slurp(kLock) == daemon_pid);
  struct stat file {};
  REQUIRE(stat(kLock.c_str(), &file) == 0);
  CHECK((file.st_mode & 07777) == 0644);
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
}

TEST_CASE("health: a lock an older ibkit left (a bare pid, its run gone) is taken and signed",
          "[slurm][cli]") {
  const pid_t gone = fork();
  REQUIRE(gone >= 0);
  if (gone == 0) _exit(0);
  REQUIRE(waitpid(gone, nullptr, 0) == gone);
  FakeSlurm slurm("IDLE", "");
  plant_lock(std::to_string(gone) + "\n");
  auto outcome = health(kPassingConfig);
  INFO(outcome.out << outcome.err);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.err.empty());
  CHECK(slurp(kLock).starts_with("ibkit "));
}

TEST_CASE("health: a lock file another user owns is refused, naming its owner", "[slurm][cli]") {
  if (geteuid() != 0) ibkit::test::skip_test("giving a file to another user needs root");
  FakeSlurm slurm("IDLE", "");
  plant_lock("");
  REQUIRE(chown(kLock.c_str(), 65534, 65534) == 0);
  auto outcome = health(kFailingConfig);
  INFO(outcome.out << outcome.err);
  CHECK_THAT(outcome.err, Catch::Contains(kLock + " belongs to uid 65534"));
  CHECK(slurm.state().starts_with("IDLE+DRAIN\n"));
}
