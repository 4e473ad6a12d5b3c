#include "tcp/tcp_throughput.hpp"

#include <future>
#include <numeric>
#include <sys/socket.h>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "control/server.hpp"
#include "control/session.hpp"
#include "control_test_support.hpp"
#include "schema/measurement_json.hpp"
#include "tcp/stream_pump.hpp"

using namespace ibkit;
using ibkit::test::seconds_since;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

const SharedKey kKey{"tcp-test-key"};

TestRequest tcp_request(int streams) {
  TestRequest request;
  request.test = "tcp";
  request.sizes = {64 * 1024};
  request.qps = streams;
  return request;
}

struct ClientRun {
  Expected<TcpResult> result = Error{"not run"};
  double seconds = 0;
};

// The whole client side of `ibkit pair --test tcp` against a server on its own thread.
ClientRun run_client(std::uint16_t port, const TestRequest& request, double deadline_s) {
  const auto start = Clock::now();
  const auto deadline = Deadline::after_seconds(deadline_s);
  ClientRun run;
  auto channel = connect_to_peer("127.0.0.1", port, kKey, deadline);
  if (!channel) {
    run.result = channel.error();
    return run;
  }
  auto accepted = start_session(**channel, request, deadline);
  if (!accepted) {
    run.result = accepted.error();
    return run;
  }
  run.result = run_tcp_client(**channel, request, deadline);
  run.seconds = seconds_since(start);
  return run;
}

ServerSettings keyed() {
  ServerSettings settings;
  settings.key = kKey;
  return settings;
}

}  // namespace

TEST_CASE("a 1 s TCP test between two threads reports sane, consistent numbers", "[tcp]") {
  ibkit::test::ServerThread server(keyed(), {{"tcp", serve_tcp}});
  TestRequest request = tcp_request(2);
  request.iters = 0;
  request.duration_s = 1;
  auto run = run_client(server.port(), request, 10);
  REQUIRE(run.result.ok());
  const TcpResult& result = *run.result;
  CHECK(result.streams == 2);
  CHECK(result.per_stream.size() == 2);
  CHECK(result.bytes > 0);
  CHECK(result.bytes_from_peer == 0);
  CHECK(result.bytes == result.bytes_to_peer);
  CHECK(result.seconds > 0.5);
  CHECK(result.seconds < 3);
  CHECK(run.seconds < 1 + 3);  // a bound on the whole exchange, not a speed claim
  CHECK(result.gbps > 0);
  CHECK(result.gbps == Approx(static_cast<double>(result.bytes) * 8 / result.seconds / 1e9));
  CHECK(result.mib_per_s == Approx(static_cast<double>(result.bytes) / result.seconds / 1048576));
  REQUIRE(result.gbps_to_peer);  // one way: the client's way alone
  CHECK(*result.gbps_to_peer > 0);
  CHECK_FALSE(result.gbps_from_peer);
  std::uint64_t per_stream = 0;
  for (const auto& stream : result.per_stream) {
    CHECK(stream.bytes > 0);
    CHECK(stream.gbps > 0);
    per_stream += stream.bytes;
  }
  CHECK(per_stream == result.bytes);
  auto json = to_json(result);
  CHECK(json["streams"] == 2);
  CHECK(json["per_stream"].size() == 2);
  WARN("loopback TCP, 2 streams, 1 s: " << result.gbps << " Gb/s");
  server.stop();
  CHECK_THAT(server.log(), Catch::Contains("test tcp: ok in"));
}

TEST_CASE("an iteration-bounded bidirectional TCP test moves exactly iters x size each way",
          "[tcp]") {
  ibkit::test::ServerThread server(keyed(), {{"tcp", serve_tcp}});
  TestRequest request = tcp_request(3);
  request.sizes = {1000};
  request.iters = 250;
  request.bidir = true;
  auto run = run_client(server.port(), request, 10);
  REQUIRE(run.result.ok());
  CHECK(run.result->bytes_to_peer == 3 * 250 * 1000);
  CHECK(run.result->bytes_from_peer == 3 * 250 * 1000);
  CHECK(run.result->bytes == 2 * 3 * 250 * 1000);
  // Each way over its own receiver's window: the sum's window is the longer of the two.
  REQUIRE(run.result->gbps_to_peer);
  REQUIRE(run.result->gbps_from_peer);
  CHECK(*run.result->gbps_to_peer >= run.result->gbps / 2 * 0.999);
  CHECK(*run.result->gbps_from_peer > 0);
  CHECK(*run.result->gbps_to_peer + *run.result->gbps_from_peer >= run.result->gbps * 0.999);
  for (const auto& stream : run.result->per_stream) CHECK(stream.bytes == 2 * 250 * 1000);
}

TEST_CASE("the tcp test takes exactly one write size", "[tcp]") {
  ibkit::test::ServerThread server(keyed(), {{"tcp", serve_tcp}});
  TestRequest request = tcp_request(1);
  request.sizes = {1000, 2000};
  request.iters = 10;
  auto run = run_client(server.port(), request, 5);
  REQUIRE_FALSE(run.result.ok());
  CHECK_THAT(run.result.error().message, Catch::Contains("exactly one write size"));
}

TEST_CASE("a client that disappears mid-test ends the server side with an error, promptly",
          "[tcp]") {
  auto pair = ibkit::test::channel_pair();
  TestRequest request = tcp_request(2);
  request.iters = 0;
  request.duration_s = 30;
  auto server = std::async(std::launch::async, [&] {
    return serve_tcp(*pair.server, request, Deadline::after_seconds(20));
  });
  // Play a client that connects its streams, sends a little, and dies.
  auto ports = receive_type(*pair.client, "tcp_ports", Deadline::after_seconds(5));
  REQUIRE(ports.ok());
  std::vector<Socket> streams;
  const std::string token = ports->at("token");
  for (const auto& port : ports->at("ports")) {
    auto stream = connect_tcp("127.0.0.1", port.get<std::uint16_t>(), Deadline::after_seconds(2));
    REQUIRE(stream.ok());
    REQUIRE(stream->send_all(token.data(), token.size(), Deadline::after_seconds(2)).ok());
    const std::string data(100000, 'd');
    REQUIRE(stream->send_all(data.data(), data.size(), Deadline::after_seconds(2)).ok());
    streams.push_back(std::move(*stream));
  }
  std::this_thread::sleep_for(200ms);
  const auto start = Clock::now();
  streams.clear();
  pair.client.reset();  // the whole client is gone
  auto result = server.get();
  REQUIRE_FALSE(result.ok());
  CHECK(seconds_since(start) < 2);
  CHECK_THAT(result.error().message, Catch::Contains("peer 127.0.0.1"));
}

TEST_CASE("a server that disappears mid-test ends the client with an error, promptly", "[tcp]") {
  auto pair = ibkit::test::channel_pair();
  TestRequest request = tcp_request(2);
  request.iters = 0;
  request.duration_s = 30;
  auto listener_a = Listener::open("127.0.0.1", 0);
  auto listener_b = Listener::open("127.0.0.1", 0);
  REQUIRE((listener_a.ok() && listener_b.ok()));
  REQUIRE(pair.server
              ->send({{"type", "tcp_ports"},
                      {"ports", {listener_a->local().port, listener_b->local().port}},
                      {"token", "00112233445566778899aabbccddeeff"}},
                     Deadline::after_seconds(2))
              .ok());
  auto client = std::async(std::launch::async, [&] {
    return run_tcp_client(*pair.client, request, Deadline::after_seconds(20));
  });
  auto a = listener_a->accept(Deadline::after_seconds(5));
  auto b = listener_b->accept(Deadline::after_seconds(5));
  REQUIRE((a.ok() && b.ok()));
  std::this_thread::sleep_for(300ms);
  const auto start = Clock::now();
  pair.server.reset();  // the control connection dies with the server
  auto result = client.get();
  REQUIRE_FALSE(result.ok());
  CHECK(seconds_since(start) < 2);
  CHECK_THAT(result.error().message, Catch::Contains("127.0.0.1"));
}

TEST_CASE("a stream whose peer stops reading fails as stalled, within the stall limit", "[tcp]") {
  auto sockets = ibkit::test::loopback_pair();
  std::vector<Socket> streams;
  streams.push_back(std::move(*sockets.client));
  SendPlan plan;
  plan.duration = std::chrono::seconds(30);
  const auto start = Clock::now();
  auto pumped = pump_streams(streams, plan, -1, Deadline::after_seconds(20), 300ms);
  REQUIRE_FALSE(pumped.ok());
  CHECK(seconds_since(start) < 5);  // fills the loopback buffers, then 0.3 s of nothing
  CHECK_THAT(pumped.error().message, Catch::Contains("moved no data for 0.3 s (the peer stalled)"));
}

TEST_CASE("a pump still moving data at its deadline fails at the deadline", "[tcp]") {
  auto sockets = ibkit::test::loopback_pair();
  std::vector<Socket> streams;
  streams.push_back(std::move(*sockets.server));
  // The peer keeps sending forever (it never ends its direction).
  std::atomic<bool> stop{false};
  std::thread sender([&] {
    std::string data(65536, 's');
    while (!stop) sockets.client->send_all(data.data(), data.size(), Deadline::after(100ms));
  });
  const auto start = Clock::now();
  auto pumped = pump_streams(streams, SendPlan{}, -1, Deadline::after(400ms), 10s);
  stop = true;
  sender.join();
  REQUIRE_FALSE(pumped.ok());
  CHECK(seconds_since(start) < 1.4);
  CHECK_THAT(pumped.error().message, Catch::Contains("when the deadline passed"));
}
