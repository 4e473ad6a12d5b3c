// Mistakes of the whole sweep, found before its first round: nodes that all refuse its key, or
// that all are unreachable (nothing listening, or no route from this machine), end the sweep with
// one error naming the fix (exit 3), where every node used to be blamed for them (exit 1).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/server_sides.hpp"
#include "control/auth.hpp"
#include "control_test_support.hpp"
#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "util/exit_codes.hpp"

using namespace ibkit;

namespace {

std::filesystem::path key_file(const std::string& name, char fill) {
  const auto path = test::scratch_path(name);
  std::ofstream(path) << std::string(64, fill) << "\n";
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  return path;
}

// Three agents on loopback that require the key in `path`; their --hosts list.
struct Agents {
  std::vector<std::unique_ptr<test::ServerThread>> servers;
  std::string hosts;
};
Agents agents_with_key(const std::filesystem::path& path) {
  const auto key = load_key_file(path.string());
  REQUIRE(key);
  ServerSettings server;
  server.key = *key;
  server.session_timeout = std::chrono::seconds(60);
  Agents agents;
  for (int i = 0; i < 3; ++i) {
    agents.servers.push_back(std::make_unique<test::ServerThread>(server, server_sides(*key)));
    agents.hosts += (i ? "," : "") + std::string("n") + std::to_string(i + 1) +
                    "=127.0.0.1:" + std::to_string(agents.servers.back()->port());
  }
  return agents;
}

}  // namespace

TEST_CASE("sweep: agents that all require a key, swept without one, are one error, not blame",
          "[sweep][cli]") {
  const auto key = key_file("preflight-key", 'k');
  const Agents agents = agents_with_key(key);
  const auto run = test::run_ibkit("sweep --hosts " + agents.hosts + " --test tcp --duration 0.2");
  INFO(run.out << run.err);
  CHECK(run.exit_code == kExitEnvironment);
  CHECK(test::one_line(run.err));
  CHECK_THAT(run.err, Catch::StartsWith("ibkit sweep: none of the 3 nodes answered before the "
                                        "first round") &&
                          Catch::Contains("requires a key") && Catch::Contains("--key-file"));
  CHECK(run.out.find("blamed") == std::string::npos);
}

TEST_CASE("sweep: agents swept with another key than theirs are one error naming the key",
          "[sweep][cli]") {
  const auto theirs = key_file("preflight-theirs", 't');
  const auto mine = key_file("preflight-mine", 'm');
  const Agents agents = agents_with_key(theirs);
  const auto run = test::run_ibkit("sweep --hosts " + agents.hosts + " --key-file " +
                                   mine.string() + " --test tcp --duration 0.2");
  INFO(run.out << run.err);
  CHECK(run.exit_code == kExitEnvironment);
  CHECK(test::one_line(run.err));
  CHECK_THAT(run.err, Catch::StartsWith("ibkit sweep: none of the 3 nodes answered") &&
                          Catch::Contains("key"));
}

TEST_CASE("sweep: no agent listening on any node is one error saying to start them",
          "[sweep][cli]") {
  std::string hosts;
  {
    const auto key = key_file("preflight-gone", 'g');
    const Agents gone = agents_with_key(key);
    hosts = gone.hosts;
  }  // stopped: nothing listens on their ports now
  const auto run = test::run_ibkit("sweep --hosts " + hosts + " --test tcp --duration 0.2");
  INFO(run.out << run.err);
  CHECK(run.exit_code == kExitEnvironment);
  CHECK(test::one_line(run.err));
  CHECK_THAT(run.err, Catch::StartsWith("ibkit sweep: none of the 3 nodes answered") &&
                          Catch::Contains("start the agents first"));
}

TEST_CASE("sweep: nodes this machine has no route to are one error saying where to sweep from",
          "[sweep][cli]") {
  // The limited broadcast address: TCP to it is refused by this machine's own routing
  // (ENETUNREACH) and nothing leaves it, as on a login node with no route to the IPoIB subnet.
  const auto run = test::run_ibkit(
      "sweep --hosts n1=255.255.255.255:18515,n2=255.255.255.255:18516 --test tcp "
      "--connect-timeout 2");
  INFO(run.out << run.err);
  CHECK(run.exit_code == kExitEnvironment);
  CHECK(test::one_line(run.err));
  CHECK_THAT(run.err, Catch::StartsWith("ibkit sweep: none of the 2 nodes answered") &&
                          Catch::Contains("Network is unreachable: this machine reaches none of "
                                          "them; run ibkit sweep on a host of their network"));
}

TEST_CASE("sweep: pairs longer than every agent's session are one error naming both lengths",
          "[sweep][cli]") {
  const auto key = key_file("preflight-session", 's');
  const Agents agents = agents_with_key(key);  // sessions of 60 s
  const auto run = test::run_ibkit("sweep --hosts " + agents.hosts + " --key-file " + key.string() +
                                   " --test tcp --duration 0.2 --pair-deadline 90");
  INFO(run.out << run.err);
  // Every pair was refused by its node ("drive field deadline_s ... this session has left")
  // and every node blamed.
  CHECK(run.exit_code == kExitEnvironment);
  CHECK(test::one_line(run.err));
  CHECK(run.err ==
        "ibkit sweep: the agents' sessions last 60 s (ibkit serve --session-timeout), less than "
        "a pair may take (its deadline 90 s): every node would refuse every pair; start the "
        "agents with a --session-timeout over 91, or give --pair-deadline under 59 (with a "
        "--duration that fits in it)\n");
  CHECK(run.out.empty());
}

TEST_CASE("sweep: with one agent of three answering, the sweep runs and blames the other two",
          "[sweep][cli]") {
  const auto key = key_file("preflight-some", 's');
  Agents agents = agents_with_key(key);
  agents.servers[1].reset();
  agents.servers[2].reset();
  const auto run = test::run_ibkit("sweep --hosts " + agents.hosts + " --key-file " + key.string() +
                                   " --test tcp --duration 0.2");
  INFO(run.out << run.err);
  CHECK(run.exit_code == kExitFail);
  CHECK(run.err.find("none of the") == std::string::npos);
}
