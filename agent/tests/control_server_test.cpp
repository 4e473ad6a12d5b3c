#include <future>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "control/server.hpp"
#include "control/session.hpp"
#include "control_test_support.hpp"

using namespace ibkit;
using ibkit::test::seconds_since;
using ibkit::test::ServerThread;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

const SharedKey kKey{"unit-test-key"};

// A side that echoes the request's qps back as its result.
ServerSides echo_sides() {
  return {{"echo",
           [](Channel&, const TestRequest& request, const Deadline&) -> Expected<nlohmann::json> {
             return nlohmann::json{{"qps", request.qps}};
           }}};
}

ServerSettings keyed() {
  ServerSettings settings;
  settings.key = kKey;
  return settings;
}

TestRequest echo_request(int qps = 3) {
  TestRequest request;
  request.test = "echo";
  request.qps = qps;
  return request;
}

// A whole client session against the test server: connect, request, result.
Expected<nlohmann::json> run_echo(std::uint16_t port, const TestRequest& request,
                                  const std::optional<SharedKey>& key = kKey) {
  auto deadline = Deadline::after_seconds(5);
  auto channel = connect_to_peer("127.0.0.1", port, key, deadline);
  if (!channel) return channel.error();
  auto accepted = start_session(**channel, request, deadline);
  if (!accepted) return accepted.error();
  return receive_type(**channel, "result", deadline);
}

}  // namespace

TEST_CASE("a session runs the side named by the request and returns its result", "[control]") {
  ServerThread server(keyed(), echo_sides());
  auto result = run_echo(server.port(), echo_request(3));
  REQUIRE(result.ok());
  CHECK(result->at("qps") == 3);
  auto again = run_echo(server.port(), echo_request(5));
  REQUIRE(again.ok());
  CHECK(again->at("qps") == 5);
  auto summary = server.stop();
  CHECK(summary.sessions == 2);
  CHECK(summary.failed == 0);
  CHECK(summary.stopped);
  CHECK_THAT(server.log(), Catch::Contains("session 1 from 127.0.0.1:"));
  CHECK_THAT(server.log(), Catch::Contains(", test echo: ok in "));
}

TEST_CASE("an unknown test and an out-of-bounds request are refused to the client", "[control]") {
  ServerThread server(keyed(), echo_sides());
  TestRequest unknown = echo_request();
  unknown.test = "bogus";
  auto refused = run_echo(server.port(), unknown);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message,
             Catch::Contains("refused: unknown test \"bogus\"; this server runs: echo"));

  TestRequest absurd = echo_request();
  absurd.qps = 1000;
  auto bounded = run_echo(server.port(), absurd);
  REQUIRE_FALSE(bounded.ok());
  CHECK_THAT(bounded.error().message,
             Catch::Contains("refused: request field \"qps\": 1000 is outside 1..64"));
  server.stop();
  CHECK_THAT(server.log(), Catch::Contains("failed after"));
  CHECK(server.summary().failed == 2);
}

TEST_CASE("a request longer than the session limit is refused up front", "[control]") {
  ServerSettings settings = keyed();
  settings.session_timeout = 10s;
  ServerThread server(settings, echo_sides());
  TestRequest request = echo_request();
  request.duration_s = 6;
  request.sizes = {2, 4};
  auto refused = run_echo(server.port(), request);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("over this server's session limit of 10 s"));
}

TEST_CASE("a wrong key is refused on both ends and the server logs one line", "[control]") {
  ServerThread server(keyed(), echo_sides());
  auto refused = run_echo(server.port(), echo_request(), SharedKey{"not-the-key"});
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message,
             Catch::Contains("the peer does not hold this key (TLS handshake failed)"));
  // The server is still there for the right key.
  CHECK(run_echo(server.port(), echo_request()).ok());
  auto summary = server.stop();
  CHECK(summary.refused == 1);
  CHECK(summary.sessions == 1);
  CHECK_THAT(server.log(), Catch::Contains("connection refused: peer 127.0.0.1:") &&
                               Catch::Contains("the peer does not hold this key"));
}

TEST_CASE("a client without a key and a server without one are told why, in plain frames",
          "[control]") {
  ServerThread server(keyed(), echo_sides());
  auto keyless = run_echo(server.port(), echo_request(), std::nullopt);
  REQUIRE_FALSE(keyless.ok());
  CHECK_THAT(keyless.error().message, Catch::Contains("refused: this server requires a key") &&
                                          Catch::Contains("--key-file"));

  ServerSettings plain;
  plain.once = true;
  plain.accept_window = 5s;
  ServerThread open(plain, echo_sides());
  auto keyed_client = run_echo(open.port(), echo_request(), kKey);
  REQUIRE_FALSE(keyed_client.ok());
  CHECK_THAT(keyed_client.error().message, Catch::Contains("refused: this server has no key"));
  // Neither counts as the --once server's session: the next keyless client still gets it.
  CHECK(run_echo(open.port(), echo_request(), std::nullopt).ok());
  REQUIRE(open.wait(3s));
  CHECK(open.summary().sessions == 1);
  CHECK(open.summary().refused == 1);
}

TEST_CASE("a second client while a session runs is told the server is busy", "[control]") {
  std::promise<void> release;
  auto released = release.get_future().share();
  ServerSides sides{
      {"hold",
       [released](Channel&, const TestRequest&, const Deadline&) -> Expected<nlohmann::json> {
         released.wait_for(5s);
         return nlohmann::json::object();
       }}};
  ServerThread server(keyed(), sides);
  TestRequest hold = echo_request();
  hold.test = "hold";
  auto first = std::async(std::launch::async, [&] { return run_echo(server.port(), hold); });
  std::this_thread::sleep_for(200ms);  // the first session is inside its side now

  const auto start = Clock::now();
  auto second = run_echo(server.port(), hold);
  REQUIRE_FALSE(second.ok());
  CHECK(seconds_since(start) < 2 + 1.0);  // an answer after the next-in-line wait, not a hang
  CHECK_THAT(second.error().message,
             Catch::Contains("refused: busy: this server is running a session with 127.0.0.1:"));

  release.set_value();
  CHECK(first.get().ok());
  auto summary = server.stop();
  CHECK(summary.busy == 1);
  CHECK(summary.sessions == 1);
  CHECK_THAT(server.log(),
             Catch::Contains("connection refused: peer 127.0.0.1:") && Catch::Contains(": busy: "));
}

TEST_CASE("a client that vanishes ends its session with an error, the next one is served",
          "[control]") {
  ServerThread server(keyed(), echo_sides());
  {
    auto channel = connect_to_peer("127.0.0.1", server.port(), kKey, Deadline::after_seconds(5));
    REQUIRE(channel.ok());
    // Authenticated, then gone without a request.
  }
  CHECK(run_echo(server.port(), echo_request()).ok());
  auto summary = server.stop();
  CHECK(summary.sessions == 2);
  CHECK(summary.failed == 1);
  CHECK_THAT(server.log(), Catch::Contains("closed the connection"));
}

TEST_CASE("a client that never speaks holds no session slot and is cut off at its deadline",
          "[control]") {
  ServerSettings settings = keyed();
  settings.handshake_timeout = 300ms;
  ServerThread server(settings, echo_sides());
  auto silent = connect_tcp("127.0.0.1", server.port(), Deadline::after_seconds(2));
  REQUIRE(silent.ok());
  // An authenticated client is served at once, the silent one still connected.
  const auto start = Clock::now();
  CHECK(run_echo(server.port(), echo_request()).ok());
  CHECK(seconds_since(start) < 1);
  std::this_thread::sleep_for(600ms);
  auto summary = server.stop();
  CHECK(summary.refused == 1);
  CHECK(summary.sessions == 1);
  CHECK_THAT(server.log(),
             Catch::Contains("(deadline passed) while waiting for the TLS handshake"));
}

TEST_CASE("a flood of silent connections does not make an authenticated session busy",
          "[control]") {
  ServerSettings settings = keyed();
  settings.handshake_timeout = 10s;  // the silent ones would hold on for 10 s each
  settings.max_handshakes = 4;
  ServerThread server(settings, echo_sides());
  std::vector<Socket> silent;
  for (int i = 0; i < 12; ++i) {
    auto socket = connect_tcp("127.0.0.1", server.port(), Deadline::after_seconds(2));
    REQUIRE(socket.ok());
    silent.push_back(std::move(*socket));
  }
  // More connections than handshakes allowed: the oldest give way. Each authenticated client
  // still gets its session promptly, however many silent ones came before it.
  for (int i = 0; i < 3; ++i) {
    const auto start = Clock::now();
    auto result = run_echo(server.port(), echo_request(i + 1));
    INFO(server.log());
    REQUIRE(result.ok());
    CHECK(result->at("qps") == i + 1);
    CHECK(seconds_since(start) < 1.5);
    auto more = connect_tcp("127.0.0.1", server.port(), Deadline::after_seconds(2));
    REQUIRE(more.ok());
    silent.push_back(std::move(*more));
  }
  auto summary = server.stop();
  CHECK(summary.sessions == 3);
  CHECK(summary.busy == 0);
  CHECK(summary.refused >= 15 - 4);  // evicted, or cut when the server stopped
}

TEST_CASE("refused connections are logged at most once per interval, with a count", "[control]") {
  ServerSettings settings = keyed();
  settings.refusal_log_interval = 10s;
  ServerThread server(settings, echo_sides());
  for (int i = 0; i < 6; ++i) {
    CHECK_FALSE(run_echo(server.port(), echo_request(), SharedKey{"wrong"}).ok());
  }
  CHECK(run_echo(server.port(), echo_request()).ok());
  auto summary = server.stop();
  CHECK(summary.refused == 6);
  const std::string log = server.log();
  std::size_t lines = 0;
  for (auto at = log.find("connection refused"); at != std::string::npos;
       at = log.find("connection refused", at + 1)) {
    ++lines;
  }
  CHECK(lines == 1);
  CHECK_THAT(log, Catch::Contains("ibkit serve: 5 more refused connection(s) not logged"));
  CHECK_THAT(log, Catch::Contains("session 1 from 127.0.0.1:"));
}

TEST_CASE("a --once server's session is the first authenticated one, not a stray connection",
          "[control]") {
  ServerSettings settings = keyed();
  settings.once = true;
  settings.accept_window = 5s;
  ServerThread server(settings, echo_sides());
  { auto stray = connect_tcp("127.0.0.1", server.port(), Deadline::after_seconds(2)); }
  CHECK_FALSE(run_echo(server.port(), echo_request(), SharedKey{"wrong"}).ok());
  auto result = run_echo(server.port(), echo_request(7));
  REQUIRE(result.ok());
  CHECK(result->at("qps") == 7);
  REQUIRE(server.wait(3s));
  CHECK(server.summary().sessions == 1);
  CHECK(server.summary().failed == 0);
  CHECK(server.summary().refused == 2);
}

TEST_CASE("a --once server with nobody coming returns at its deadline", "[control]") {
  ServerSettings settings;
  settings.once = true;
  settings.accept_window = 300ms;
  const auto start = Clock::now();
  ServerThread server(settings, echo_sides());
  REQUIRE(server.wait(3s));
  CHECK(seconds_since(start) < 1.3);
  CHECK(server.summary().nobody_came);
  CHECK(server.summary().sessions == 0);
}

TEST_CASE("a --once server ends after its one session", "[control]") {
  ServerSettings settings;
  settings.once = true;
  settings.accept_window = 5s;
  ServerThread server(settings, echo_sides());
  auto result = run_echo(server.port(), echo_request(), std::nullopt);
  REQUIRE(result.ok());
  REQUIRE(server.wait(3s));
  CHECK(server.summary().sessions == 1);
  CHECK_FALSE(server.summary().nobody_came);
}

TEST_CASE("stopping the server ends a session in progress", "[control]") {
  ServerSides sides{{"wait",
                     [](Channel& channel, const TestRequest&,
                        const Deadline& deadline) -> Expected<nlohmann::json> {
                       auto message = channel.receive(deadline);  // the client never sends
                       if (!message) return message.error();
                       return nlohmann::json::object();
                     }}};
  ServerThread server(keyed(), sides);
  auto channel = connect_to_peer("127.0.0.1", server.port(), kKey, Deadline::after_seconds(5));
  REQUIRE(channel.ok());
  TestRequest request = echo_request();
  request.test = "wait";
  REQUIRE(start_session(**channel, request, Deadline::after_seconds(5)).ok());
  const auto start = Clock::now();
  auto summary = server.stop();
  CHECK(seconds_since(start) < 2);
  CHECK(summary.stopped);
  CHECK_THAT(server.log(), Catch::Contains("stopping; ending the session with 127.0.0.1:"));
}

TEST_CASE("a side that throws fails its session, not the server", "[control]") {
  ServerSides sides{
      {"boom", [](Channel&, const TestRequest&, const Deadline&) -> Expected<nlohmann::json> {
         return nlohmann::json::array().at(3);  // throws out_of_range
       }}};
  ServerThread server(keyed(), sides);
  TestRequest request = echo_request();
  request.test = "boom";
  CHECK_FALSE(run_echo(server.port(), request).ok());
  auto summary = server.stop();
  CHECK(summary.failed == 1);
  CHECK_THAT(server.log(), Catch::Contains("internal error"));
}
