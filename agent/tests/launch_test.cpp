// The launcher of `ibkit sweep --launch`: its argv for ssh and srun, the nodes it starts on, and
// what it makes of each way a node can fail, against fake_launcher.sh (installed as ssh and
// srun) and fake_agent.sh (another node's ibkit), and the real agent for a server.
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <variant>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "fake_launchers.hpp"
#include "launch/launch_room.hpp"
#include "launch/launch_targets.hpp"
#include "launch/node_problem.hpp"
#include "launch/remote_check.hpp"
#include "launch/remote_command.hpp"
#include "launch/server_fleet.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "util/build_version.hpp"
#include "util/process/descriptor_room.hpp"
#include "util/time/deadline.hpp"

using namespace ibkit;
using ibkit::test::FakeLaunchers;
using ibkit::test::free_port;
using ibkit::test::kFakeAgent;
using ibkit::test::process_with;
using ibkit::test::settings_for;

namespace {

const std::string kKey(64, 'c');

// check_node's outcome, which must not be this machine's failure.
RemoteCheck checked_node(const LaunchSettings& settings, const std::string& target) {
  auto checked = check_node(settings, target);
  REQUIRE(checked.ok());
  return std::move(*checked);
}

// The fleet started, which must not be this machine's failure.
std::unique_ptr<ServerFleet> started_fleet(const LaunchSettings& settings,
                                           const std::vector<std::string>& nodes) {
  auto fleet = ServerFleet::start(settings, nodes, SharedKey{kKey});
  REQUIRE(fleet.ok());
  return std::move(*fleet);
}

NodeProblem problem_of(const RemoteCheck& checked) {
  REQUIRE(std::holds_alternative<NodeProblem>(checked.outcome));
  return std::get<NodeProblem>(checked.outcome);
}

}  // namespace

TEST_CASE("ssh runs the command in batch mode with a connect timeout, quoted for the remote shell",
          "[launch]") {
  RemoteCommand remote{LaunchMethod::kSsh, 4.2};
  const auto argv = remote_argv(remote, "admin@cn01", {"ibkit", "check", "--config", "/a b/it's"});
  REQUIRE(argv.size() == 13);
  CHECK(argv[0] == "ssh");
  CHECK(argv[2] == "BatchMode=yes");
  CHECK(argv[4] == "ConnectTimeout=5");
  CHECK(argv[10] == "--");
  CHECK(argv[11] == "admin@cn01");
  CHECK(argv[12] == "ibkit check --config '/a b/it'\\''s'");
}

TEST_CASE(
    "srun runs one task on the node overlapping the allocation's steps, the words as they are",
    "[launch]") {
  const auto argv =
      remote_argv(RemoteCommand{LaunchMethod::kSlurm, 5}, "cn07", {"ibkit", "serve", "a b"});
  const std::vector<std::string> expected{"srun",
                                          "--overlap",
                                          "--nodes=1",
                                          "--ntasks=1",
                                          "--quiet",
                                          "--job-name=ibkit",
                                          "--nodelist=cn07",
                                          "--",
                                          "ibkit",
                                          "serve",
                                          "a b"};
  CHECK(argv == expected);
}

TEST_CASE("shell_quoted leaves safe words alone and single-quotes the rest", "[launch]") {
  CHECK(shell_quoted("cn01.example-1:18515") == "cn01.example-1:18515");
  CHECK(shell_quoted("") == "''");
  CHECK(shell_quoted("a b") == "'a b'");
  CHECK(shell_quoted("$(reboot)") == "'$(reboot)'");
  CHECK(shell_quoted("it's") == "'it'\\''s'");
}

TEST_CASE("the launcher is ssh or slurm, and a wrong one names both", "[launch]") {
  CHECK(*parse_launch_method("ssh") == LaunchMethod::kSsh);
  CHECK(*parse_launch_method("slurm") == LaunchMethod::kSlurm);
  auto other = parse_launch_method("pdsh");
  REQUIRE_FALSE(other.ok());
  CHECK(other.error().message.find("--launch pdsh: expected ssh") == 0);
}

TEST_CASE("Slurm's nodes come from the allocation, expanded as Slurm expands them", "[launch]") {
  auto nodes = launch_targets(LaunchMethod::kSlurm, "", "vm[1-3]");
  REQUIRE(nodes.ok());
  CHECK(*nodes == std::vector<std::string>{"vm1", "vm2", "vm3"});
  auto chosen = launch_targets(LaunchMethod::kSlurm, "vm[2-3]", "vm[1-3]");
  REQUIRE(chosen.ok());
  CHECK(*chosen == std::vector<std::string>{"vm2", "vm3"});
}

TEST_CASE("a Slurm launch outside an allocation says how to get one", "[launch]") {
  for (const char* nodelist : {static_cast<const char*>(nullptr), ""}) {
    auto nodes = launch_targets(LaunchMethod::kSlurm, "", nodelist);
    REQUIRE_FALSE(nodes.ok());
    CHECK(nodes.error().message.find("SLURM_JOB_NODELIST is not set") != std::string::npos);
    CHECK(nodes.error().message.find("salloc -N 2 ibkit sweep --launch slurm") !=
          std::string::npos);
  }
  auto bad = launch_targets(LaunchMethod::kSlurm, "", "vm[1-");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("SLURM_JOB_NODELIST: ") == 0);
}

TEST_CASE("ssh's nodes come from --hosts: a list, a host list or a file", "[launch]") {
  auto listed = launch_targets(LaunchMethod::kSsh, "cn[01-02],admin@cn03", nullptr);
  REQUIRE(listed.ok());
  CHECK(*listed == std::vector<std::string>{"cn01", "cn02", "admin@cn03"});
  CHECK(target_address("admin@cn03") == "cn03");
  CHECK(target_address("cn03") == "cn03");
  const auto file = test::write_scratch_file("targets", "# the rack\ncn01\n\n  cn02  # spare\n");
  auto read = launch_targets(LaunchMethod::kSsh, file, nullptr);
  REQUIRE(read.ok());
  CHECK(*read == std::vector<std::string>{"cn01", "cn02"});
  std::filesystem::remove(file);
}

TEST_CASE("ssh's --hosts is refused, naming the problem, before any node is reached", "[launch]") {
  auto error_of = [](const std::string& hosts) {
    auto nodes = launch_targets(LaunchMethod::kSsh, hosts, nullptr);
    REQUIRE_FALSE(nodes.ok());
    return nodes.error().message;
  };
  CHECK(error_of("").find("--launch ssh needs --hosts") == 0);
  CHECK(error_of("cn01").find("names 1 node; a sweep needs at least two") != std::string::npos);
  CHECK(error_of("cn01,cn01").find("cn01 is named twice") != std::string::npos);
  CHECK(error_of("-oProxyCommand=x,cn01").find("is not a node name") != std::string::npos);
  CHECK(error_of("cn[1-").find("--hosts: ") == 0);
  const auto file = test::write_scratch_file("targets-bad", "cn01\ncn02 10.0.0.2\n");
  CHECK(error_of(file) ==
        file + ":2: one ssh destination per line (NODE or USER@NODE), not \"cn02 10.0.0.2\"");
  std::filesystem::remove(file);
}

TEST_CASE("a launcher's failures are named for what they are", "[launch]") {
  auto unreachable =
      classify_launch_failure(LaunchMethod::kSsh, "cn01", "ibkit check", 255,
                              "ssh: connect to host cn01 port 22: Connection refused\n", "ibkit");
  CHECK(unreachable.kind == NodeProblemKind::kUnreachable);
  CHECK(unreachable.message ==
        "cn01: not reachable over ssh (ssh: connect to host cn01 port 22: Connection refused): "
        "ssh -o BatchMode=yes cn01 must log in without a prompt");
  auto missing = classify_launch_failure(LaunchMethod::kSsh, "cn01", "ibkit check", 127,
                                         "sh: 1: ibkit: not found\n", "ibkit");
  CHECK(missing.kind == NodeProblemKind::kNoAgent);
  CHECK(missing.message.find("--remote-ibkit PATH") != std::string::npos);
  auto not_executed = classify_launch_failure(
      LaunchMethod::kSlurm, "cn01", "ibkit check", 2,
      "slurmstepd: error: execve(): ibkit: No such file or directory\n", "ibkit");
  CHECK(not_executed.kind == NodeProblemKind::kNoAgent);
  auto old = classify_launch_failure(
      LaunchMethod::kSsh, "cn01", "ibkit serve", 2,
      "The following argument was not expected: --until-stdin-closes\n", "ibkit");
  CHECK(old.kind == NodeProblemKind::kOtherAgent);
  CHECK(old.message.find("too old for --launch") != std::string::npos);
  auto slurm = classify_launch_failure(LaunchMethod::kSlurm, "cn09", "ibkit check", 1,
                                       "srun: error: Invalid node name specified\n", "ibkit");
  CHECK(slurm.kind == NodeProblemKind::kUnreachable);
  auto other = classify_launch_failure(LaunchMethod::kSsh, "cn01", "ibkit serve", 3,
                                       "ibkit serve: port 18515 is in use\n", "ibkit");
  CHECK(other.kind == NodeProblemKind::kFailed);
  CHECK(other.message ==
        "cn01: ibkit serve exited 3 through ssh: ibkit serve: port 18515 is in use");
}

TEST_CASE("a node left out stands in the report as one failed check naming why", "[launch]") {
  const auto report =
      problem_report("cn01", NodeProblem{NodeProblemKind::kNoAgent, "cn01: no ibkit to run there"});
  CHECK(report.host == "cn01");
  REQUIRE(report.results.size() == 1);
  CHECK(report.results[0].id == "launch.agent");
  CHECK(report.results[0].status == Status::kFail);
  CHECK(report.results[0].hint == "cn01: no ibkit to run there");
  CHECK(release_of("0.1.0+a5e85cb-dirty") == "0.1.0");
  CHECK(release_of("0.1.0") == "0.1.0");
}

TEST_CASE("ibkit check through each launcher: a report, or why there is none", "[launch]") {
  FakeLaunchers launchers;
  setenv("FAKE_AGENT_HOST", "node-a", 1);
  for (auto method : {LaunchMethod::kSsh, LaunchMethod::kSlurm}) {
    INFO(launch_method_name(method));
    const auto settings = settings_for(method);
    setenv("FAKE_AGENT_VERSION", build_version().c_str(), 1);
    auto checked = checked_node(settings, "cn1");
    REQUIRE(std::holds_alternative<CheckReport>(checked.outcome));
    CHECK(std::get<CheckReport>(checked.outcome).host == "cn1");

    setenv("FAKE_AGENT_VERSION", "0.0.9+0000000", 1);
    auto other = problem_of(checked_node(settings, "cn1"));
    CHECK(other.kind == NodeProblemKind::kOtherAgent);
    CHECK(other.message == "cn1: runs ibkit 0.0.9+0000000, this is ibkit " + build_version() +
                               ": install the same release on every node");
    setenv("FAKE_AGENT_VERSION", "", 1);
    CHECK(problem_of(checked_node(settings, "cn1")).message.find("older than") !=
          std::string::npos);

    CHECK(problem_of(checked_node(settings, "down1")).kind == NodeProblemKind::kUnreachable);
    CHECK(problem_of(checked_node(settings, "bare1")).kind == NodeProblemKind::kNoAgent);
  }
  unsetenv("FAKE_AGENT_HOST");
  unsetenv("FAKE_AGENT_VERSION");
}

TEST_CASE("a node given as USER@NODE is named NODE in what the sweep says of it", "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh);
  // The ssh command in the fix keeps the user: it is what must log in.
  CHECK(problem_of(checked_node(settings, "admin@down1")).message ==
        "down1: not reachable over ssh (ssh: connect to host down1 port 22: Connection refused): "
        "ssh -o BatchMode=yes admin@down1 must log in without a prompt");
  CHECK_THAT(problem_of(checked_node(settings, "admin@bare1")).message,
             Catch::StartsWith("bare1: no "));
  settings.port = free_port();
  auto fleet = started_fleet(settings, {"admin@down2"});
  REQUIRE(fleet->problems()[0].has_value());
  CHECK_THAT(fleet->problems()[0]->message, Catch::StartsWith("down2: not reachable over ssh"));
}

TEST_CASE("a launched sweep's --pair-deadline past a default session starts servers that hold it",
          "[launch][cli]") {
  FakeLaunchers launchers;
  // Under ibkit serve's default 600 s sessions every drive of 700 s would be refused.
  const auto run = test::run_ibkit("sweep --launch ssh --hosts 127.0.0.2,127.0.0.3 --port " +
                                       std::to_string(free_port()) +
                                       " --test tcp --duration 0.1 --pair-deadline 700 "
                                       "--remote-ibkit " +
                                       test::ibkit_binary(),
                                   {60});
  INFO(run.out << run.err);
  CHECK(launchers.calls().find("--until-stdin-closes --session-timeout 730") != std::string::npos);
  CHECK_THAT(run.out, Catch::Contains("pairs not passed 0 of 1"));
}

TEST_CASE("a server started through the launcher gets the key on stdin and stops when it closes",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh, ibkit::test::ibkit_binary());
  settings.port = free_port();
  const std::string marker = "--port " + std::to_string(settings.port);
  {
    auto fleet = started_fleet(settings, {"local1", "down1"});
    REQUIRE(fleet->problems().size() == 2);
    CHECK_FALSE(fleet->problems()[0].has_value());
    REQUIRE(fleet->problems()[1].has_value());
    CHECK(fleet->problems()[1]->kind == NodeProblemKind::kUnreachable);
    CHECK(process_with(marker));
    CHECK(fleet->stop().empty());
  }
  CHECK_FALSE(process_with(marker));
  CHECK(launchers.calls().find(kKey) == std::string::npos);
  CHECK(launchers.calls().find("--key-file - --until-stdin-closes") != std::string::npos);
}

TEST_CASE("a server that never says it listens is given up on at its deadline, and stopped",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh, ibkit::test::ibkit_binary());
  settings.port = free_port();
  settings.listen_timeout_s = 1.5;
  const std::string marker = "--port " + std::to_string(settings.port);
  auto fleet = started_fleet(settings, {"mute1"});
  REQUIRE(fleet->problems()[0].has_value());
  CHECK(fleet->problems()[0]->message.find(
            "mute1: ibkit serve did not say it listens within 2 s") == 0);
  fleet->stop();
  CHECK_FALSE(process_with(marker));
}

TEST_CASE("waiting for servers to listen ends by the sweep's --deadline", "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh, ibkit::test::ibkit_binary());
  settings.port = free_port();
  settings.listen_timeout_s = 60;
  settings.deadline = Deadline::after_seconds(1);
  const auto start = std::chrono::steady_clock::now();
  auto fleet = started_fleet(settings, {"mute1"});
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(fleet->problems()[0].has_value());
  CHECK(waited < 10);  // the 60 s listen timeout did not hold it
  CHECK_THAT(fleet->problems()[0]->message,
             Catch::StartsWith("mute1: ibkit serve did not say it listens within 1 s") &&
                 Catch::Contains("what the sweep's --deadline left it"));
  fleet->stop();
}

TEST_CASE("an agent too old for --until-stdin-closes is named as such", "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSlurm);
  settings.port = free_port();
  auto fleet = started_fleet(settings, {"cn1"});
  REQUIRE(fleet->problems()[0].has_value());
  CHECK(fleet->problems()[0]->kind == NodeProblemKind::kOtherAgent);
}

TEST_CASE("launchers deaf to SIGTERM are terminated together and killed after one shared grace",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh);
  settings.stop_grace_s = 0.5;
  settings.term_grace_s = 0.5;
  std::vector<std::string> nodes;
  for (int i = 1; i <= 10; ++i) nodes.push_back("deaf" + std::to_string(i));
  auto fleet = started_fleet(settings, nodes);
  for (const auto& problem : fleet->problems()) CHECK_FALSE(problem.has_value());
  const auto started = std::chrono::steady_clock::now();
  const auto killed = fleet->stop();
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // Both graces are 1 s together; one launcher after another took 3 s each after the first.
  CHECK(took < 3.0);
  REQUIRE(killed.size() == 10);
  CHECK(killed[0] ==
        "deaf1: its server did not end within 0.5 s of its input closing; its "
        "launcher was terminated");
}

TEST_CASE("a node's check ends by the sweep's --deadline when that comes before its own bound",
          "[launch]") {
  FakeLaunchers launchers;
  auto settings = settings_for(LaunchMethod::kSsh);
  settings.deadline = Deadline::after_seconds(1);
  const auto started = std::chrono::steady_clock::now();
  const auto hung = problem_of(checked_node(settings, "hung1"));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK(hung.message.find("hung1: ibkit check through ssh did not finish within ") == 0);
  CHECK(hung.message.find("what the sweep's --deadline left it; killed it") != std::string::npos);
  CHECK(problem_of(checked_node(settings, "hung2")).message ==
        "hung2: ibkit check through ssh not started: the sweep's --deadline had passed");

  settings.deadline.reset();
  settings.check_timeout_s = 0.5;
  CHECK(problem_of(checked_node(settings, "hung3")).message ==
        "hung3: ibkit check through ssh did not finish within 0.5 s, the most one node's check "
        "may take; killed it");
}

TEST_CASE("65 hung nodes hold a launched sweep no longer than its --deadline", "[launch][cli]") {
  FakeLaunchers launchers;
  const auto started = std::chrono::steady_clock::now();
  // 64 checks run at once: the 65th started once the first ended, with a bound of its own.
  const auto run = test::run_ibkit(
      "sweep --launch ssh --hosts 'hung[1-65]' --deadline 2 --pattern ring --test tcp "
      "--duration 0.1 --remote-ibkit " +
          kFakeAgent,
      {60});
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("hung65: ibkit check through ssh not started: the sweep's --deadline had "
                     "passed") != std::string::npos);
  CHECK(run.err.find("--check-timeout") == std::string::npos);
}

TEST_CASE("a node's report names it as given, never as the node calls itself", "[launch]") {
  FakeLaunchers launchers;
  setenv("FAKE_AGENT_VERSION", build_version().c_str(), 1);
  setenv("FAKE_AGENT_HOST", "cn99", 1);
  const auto settings = settings_for(LaunchMethod::kSsh);
  auto other = checked_node(settings, "admin@cn1");
  REQUIRE(std::holds_alternative<CheckReport>(other.outcome));
  CHECK(std::get<CheckReport>(other.outcome).host == "cn1");
  CHECK(other.own_name == "cn99");
  setenv("FAKE_AGENT_HOST", "cn2", 1);
  auto same = checked_node(settings, "cn2");
  REQUIRE(std::holds_alternative<CheckReport>(same.outcome));
  CHECK(std::get<CheckReport>(same.outcome).host == "cn2");
  CHECK(same.own_name.empty());
  unsetenv("FAKE_AGENT_HOST");
  unsetenv("FAKE_AGENT_VERSION");
}

TEST_CASE("two destinations of one node name it twice", "[launch]") {
  auto nodes = launch_targets(LaunchMethod::kSsh, "admin@cn01,cn01", nullptr);
  REQUIRE_FALSE(nodes.ok());
  CHECK(nodes.error().message == "--hosts admin@cn01,cn01: cn01 is named twice");
}

TEST_CASE("two launched nodes of one host name are swept and reported as the nodes given",
          "[launch][cli]") {
  FakeLaunchers launchers;
  const auto output = test::scratch_path("launched-report");
  // Both nodes are this machine, on two loopback addresses: each one's check reports its host
  // name, the same for both.
  const auto run = test::run_ibkit("sweep --launch ssh --hosts 127.0.0.2,127.0.0.3 --port " +
                                       std::to_string(free_port()) +
                                       " --test tcp --duration 0.1 --format json --output " +
                                       output.string() + " --remote-ibkit " + test::ibkit_binary(),
                                   {60});
  INFO(run.err);
  CHECK(run.exit_code != 2);
  std::ifstream in(output / "report.json");
  const auto report = nlohmann::json::parse(in, nullptr, false);
  REQUIRE_FALSE(report.is_discarded());
  const std::vector<std::string> given{"127.0.0.2", "127.0.0.3"};
  CHECK(report["nodes"].get<std::vector<std::string>>() == given);
  REQUIRE(report["node_checks"].size() == 2);
  CHECK(report["node_checks"][0]["host"] == given[0]);
  CHECK(report["node_checks"][1]["host"] == given[1]);
  CHECK(run.err.find("2 node(s) call themselves by other names than given (127.0.0.2 calls "
                     "itself ") != std::string::npos);
  std::error_code ignored;
  std::filesystem::remove_all(output, ignored);
}

TEST_CASE("a launched sweep's nodes fit in the open files it may have, or it does not start",
          "[launch]") {
  const DescriptorRoom room{1024, 1024, 24};
  CHECK(launch_descriptors(100) == 396);
  CHECK(check_launch_room(300, room).ok());
  auto many = check_launch_room(400, room);
  REQUIRE_FALSE(many.ok());
  CHECK(many.error().environment);
  CHECK(many.error().message ==
        "400 nodes need about 1296 open files at once (each one's launcher and connection), and "
        "this process may open 1000 more (ulimit -n: 1024, the hard limit 1024): raise the hard "
        "limit (nofile in /etc/security/limits.conf, LimitNOFILE= for a service, ulimit -Hn as "
        "root) or launch at most 301 nodes at a time");
  CHECK(checks_at_once(room) == 64);
  CHECK(checks_at_once(DescriptorRoom{200, 200, 24}) == 20);
  CHECK(checks_at_once(DescriptorRoom{64, 64, 60}) == 1);
}

TEST_CASE("a launched sweep raises its soft open-files limit to the hard one for 100 nodes",
          "[launch][cli]") {
  FakeLaunchers launchers;
  setenv("FAKE_AGENT_VERSION", build_version().c_str(), 1);
  test::RunLimits limits;
  limits.open_files = 1024;
  limits.open_files_soft = 64;
  // Every check runs, and every server fails as an agent too old to be launched: what each node
  // is reported for must be that, never this machine's want of descriptors.
  const auto run = test::run_ibkit(
      "sweep --launch ssh --hosts 'cn[1-100]' --remote-ibkit " + kFakeAgent, limits);
  unsetenv("FAKE_AGENT_VERSION");
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("Too many open files") == std::string::npos);
  std::size_t too_old = 0;
  for (auto at = run.out.find("fail    launch.version"); at != std::string::npos;
       at = run.out.find("fail    launch.version", at + 1)) {
    ++too_old;
  }
  CHECK(too_old == 100);
  CHECK(run.out.find("launch.reachable") == std::string::npos);
  CHECK(run.out.find("launch.agent") == std::string::npos);
}

TEST_CASE("a launched sweep too large for the open files it may have stops before any node",
          "[launch][cli]") {
  FakeLaunchers launchers;
  test::RunLimits limits;
  limits.open_files = 64;
  const auto run = test::run_ibkit(
      "sweep --launch ssh --hosts 'cn[1-100]' --remote-ibkit " + kFakeAgent, limits);
  CHECK(run.exit_code == 3);
  CHECK(test::one_line(run.err));
  CHECK(run.err.find("ibkit sweep: 100 nodes need about 396 open files at once") == 0);
  CHECK(run.err.find("(ulimit -n: 64, the hard limit 64)") != std::string::npos);
  CHECK(launchers.calls().empty());
}

TEST_CASE("a launcher that cannot start for want of descriptors is this machine's failure",
          "[launch]") {
  FakeLaunchers launchers;
  const auto settings = settings_for(LaunchMethod::kSsh);
  rlimit was{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &was) == 0);
  // No descriptor left: the lowest free one is the limit.
  const int lowest_free = dup(0);
  REQUIRE(lowest_free >= 0);
  close(lowest_free);
  rlimit full = was;
  full.rlim_cur = static_cast<rlim_t>(lowest_free);
  REQUIRE(setrlimit(RLIMIT_NOFILE, &full) == 0);
  auto checked = check_node(settings, "cn1");
  auto fleet = ServerFleet::start(settings, {"cn1", "cn2"}, SharedKey{kKey});
  REQUIRE(setrlimit(RLIMIT_NOFILE, &was) == 0);
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().message ==
        "cn1: could not start ibkit check through ssh: pipe: Too many "
        "open files");
  REQUIRE_FALSE(fleet.ok());
  CHECK(fleet.error().message == "cn1: could not start ssh: pipe: Too many open files");
}

TEST_CASE("a refused node list shows its control characters escaped, on one line", "[launch]") {
  auto list = launch_targets(LaunchMethod::kSsh,
                             "cn01,cn\x1b"
                             "X",
                             nullptr);
  REQUIRE_FALSE(list.ok());
  CHECK(list.error().message ==
        "--hosts cn01,cn\\x1bX: \"cn\\x1bX\" is not a node name (NODE or USER@NODE: "
        "letters, digits, \".-_\")");
  auto slurm = launch_targets(LaunchMethod::kSlurm, "", "vm1,login1\n");
  REQUIRE_FALSE(slurm.ok());
  CHECK(slurm.error().message ==
        "SLURM_JOB_NODELIST (the allocation): \"login1\\n\" is not a node name (NODE or "
        "USER@NODE: letters, digits, \".-_\")");
  const auto file = test::write_scratch_file("targets-escape", "cn01\ncn02\r\x07\n");
  auto read = launch_targets(LaunchMethod::kSsh, file, nullptr);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message ==
        file + ":2: one ssh destination per line (NODE or USER@NODE), not \"cn02\\r\\x07\"");
  std::filesystem::remove(file);
}
