#include <array>
#include <string>
#include <sys/socket.h>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "control/tcp_channel.hpp"
#include "control_test_support.hpp"
#include "skip_test.hpp"

using namespace ibkit;
using ibkit::test::seconds_since;
using ibkit::test::skip_test;
using Clock = std::chrono::steady_clock;

namespace {

// Writes raw bytes from the client end, the way a misbehaving peer would.
void send_raw(const Socket& socket, const std::string& bytes) {
  REQUIRE(::send(socket.fd(), bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(bytes.size()));
}

std::string header(std::uint32_t length) {
  return {static_cast<char>(length >> 24), static_cast<char>((length >> 16) & 0xff),
          static_cast<char>((length >> 8) & 0xff), static_cast<char>(length & 0xff)};
}

// A raw client socket facing a TcpChannel, for feeding it broken frames.
struct RawPeer {
  std::unique_ptr<Socket> raw;
  std::unique_ptr<TcpChannel> channel;
};

RawPeer raw_peer() {
  auto sockets = ibkit::test::loopback_pair();
  return {std::move(sockets.client), std::make_unique<TcpChannel>(std::move(*sockets.server))};
}

}  // namespace

TEST_CASE("a message survives the frame round trip in both directions", "[control]") {
  auto pair = ibkit::test::channel_pair();
  nlohmann::json message = {{"type", "request"}, {"sizes", {2, 65536}}, {"text", "μs ✓"}};
  REQUIRE(pair.client->send(message, Deadline::after_seconds(2)).ok());
  auto received = pair.server->receive(Deadline::after_seconds(2));
  REQUIRE(received.ok());
  CHECK(*received == message);

  REQUIRE(pair.server->send({{"type", "accept"}}, Deadline::after_seconds(2)).ok());
  auto accepted = receive_type(*pair.client, "accept", Deadline::after_seconds(2));
  REQUIRE(accepted.ok());
  CHECK(pair.client->peer_address() == "127.0.0.1");
  CHECK(pair.server->local_address() == "127.0.0.1");
}

TEST_CASE("the frame header is a 4-byte big-endian length", "[control]") {
  auto frame = encode_frame({{"a", 1}});
  REQUIRE(frame.ok());
  CHECK(frame->substr(0, 4) == header(7));
  CHECK(frame->substr(4) == R"({"a":1})");
}

TEST_CASE("a message over the frame limit is not sent", "[control]") {
  auto pair = ibkit::test::channel_pair();
  auto sent =
      pair.client->send({{"blob", std::string(kMaxFrameBytes, 'x')}}, Deadline::after_seconds(2));
  REQUIRE_FALSE(sent.ok());
  CHECK_THAT(sent.error().message, Catch::Contains("over the frame limit of 65536"));
}

TEST_CASE("an oversize frame is refused from its header, before any body is read", "[control]") {
  auto peer = raw_peer();
  send_raw(*peer.raw, header(0xffffffff));  // 4 GiB announced, nothing follows
  const auto start = Clock::now();
  auto received = peer.channel->receive(Deadline::after_seconds(5));
  REQUIRE_FALSE(received.ok());
  // It did not wait for (or allocate) the body: it answered long before the deadline.
  CHECK(seconds_since(start) < 1.0);
  CHECK_THAT(received.error().message,
             Catch::Contains("sent a frame of 4294967295 bytes, over the limit of 65536"));
  CHECK_THAT(received.error().message, Catch::Contains("peer 127.0.0.1:"));
  // The peer is told why before the connection ends.
  TcpChannel raw(std::move(*peer.raw));
  auto reply = receive_type(raw, "hello", Deadline::after_seconds(2));
  REQUIRE_FALSE(reply.ok());
  CHECK_THAT(reply.error().message,
             Catch::Contains("refused: ibkit refused a frame of 4294967295"));
}

TEST_CASE("a frame one byte over the limit is refused, one at the limit is read", "[control]") {
  auto peer = raw_peer();
  send_raw(*peer.raw, header(kMaxFrameBytes + 1));
  CHECK_FALSE(peer.channel->receive(Deadline::after_seconds(2)).ok());

  auto fresh = raw_peer();
  std::string body = R"({"pad":")" + std::string(kMaxFrameBytes - 10, 'x') + R"("})";
  REQUIRE(body.size() == kMaxFrameBytes);
  send_raw(*fresh.raw, header(kMaxFrameBytes) + body);
  auto received = fresh.channel->receive(Deadline::after_seconds(2));
  REQUIRE(received.ok());
  CHECK(received->at("pad").get<std::string>().size() == kMaxFrameBytes - 10);
}

TEST_CASE("garbage frames are refused with a message naming the peer", "[control]") {
  const std::array<std::string, 5> bodies{"hello", "[1,2,3]", "\"text\"", "{\"a\":", "\xff\xfe{}"};
  for (const auto& body : bodies) {
    auto peer = raw_peer();
    send_raw(*peer.raw, header(static_cast<std::uint32_t>(body.size())) + body);
    auto received = peer.channel->receive(Deadline::after_seconds(2));
    REQUIRE_FALSE(received.ok());
    CHECK_THAT(received.error().message, Catch::Contains("not a JSON object"));
    CHECK_THAT(received.error().message, Catch::Contains("peer 127.0.0.1:"));
  }
}

TEST_CASE("an HTTP request on the control port is refused as an oversize frame", "[control]") {
  auto peer = raw_peer();
  send_raw(*peer.raw, "GET / HTTP/1.1\r\n\r\n");
  auto received = peer.channel->receive(Deadline::after_seconds(2));
  REQUIRE_FALSE(received.ok());
  CHECK_THAT(received.error().message, Catch::Contains("not an ibkit agent?"));
}

TEST_CASE("deeply nested JSON and empty frames are refused", "[control]") {
  auto deep = raw_peer();
  std::string nested = "{\"a\":" + std::string(100, '[') + std::string(100, ']') + "}";
  send_raw(*deep.raw, header(static_cast<std::uint32_t>(nested.size())) + nested);
  auto received = deep.channel->receive(Deadline::after_seconds(2));
  REQUIRE_FALSE(received.ok());
  CHECK_THAT(received.error().message, Catch::Contains("depth 16 or less"));

  auto empty = raw_peer();
  send_raw(*empty.raw, header(0));
  auto none = empty.channel->receive(Deadline::after_seconds(2));
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.error().message, Catch::Contains("empty frame"));
}

TEST_CASE("a peer that closes in the middle of a frame is reported, not waited for", "[control]") {
  auto peer = raw_peer();
  send_raw(*peer.raw, header(100) + std::string(10, 'x'));
  peer.raw.reset();  // close
  const auto start = Clock::now();
  auto received = peer.channel->receive(Deadline::after_seconds(5));
  REQUIRE_FALSE(received.ok());
  CHECK(seconds_since(start) < 1.0);
  CHECK_THAT(received.error().message,
             Catch::Contains("closed the connection in the middle of a frame (10 of 100 bytes"));

  auto short_header = raw_peer();
  send_raw(*short_header.raw, std::string(2, '\0'));
  short_header.raw.reset();
  auto cut = short_header.channel->receive(Deadline::after_seconds(5));
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.error().message, Catch::Contains("in the middle of a frame header (2 of 4"));
}

TEST_CASE("a peer that closes between frames is reported as gone", "[control]") {
  auto pair = ibkit::test::channel_pair();
  pair.client.reset();
  auto received = pair.server->receive(Deadline::after_seconds(5));
  REQUIRE_FALSE(received.ok());
  CHECK_THAT(received.error().message,
             Catch::Matches("peer 127\\.0\\.0\\.1:\\d+ closed the connection"));
}

TEST_CASE("a receive from a silent peer gives up at its deadline", "[control]") {
  auto pair = ibkit::test::channel_pair();
  const auto start = Clock::now();
  auto received = pair.server->receive(Deadline::after(std::chrono::milliseconds(300)));
  const double waited = seconds_since(start);
  REQUIRE_FALSE(received.ok());
  CHECK(waited >= 0.29);
  CHECK(waited < 0.3 + 1.0);  // a bound on the wait, not a speed claim
  CHECK_THAT(received.error().message, Catch::Contains("sent nothing for 0.3"));
  CHECK_THAT(received.error().message, Catch::Contains("deadline passed"));
}

TEST_CASE("a peer that stalls in the middle of a frame is cut off at the deadline", "[control]") {
  auto peer = raw_peer();
  send_raw(*peer.raw, header(50) + "{\"a\"");
  const auto start = Clock::now();
  auto received = peer.channel->receive(Deadline::after(std::chrono::milliseconds(300)));
  REQUIRE_FALSE(received.ok());
  CHECK(seconds_since(start) < 1.3);
  CHECK_THAT(received.error().message,
             Catch::Contains("stalled in the middle of a frame (4 of 50"));
}

TEST_CASE("a send to a peer that does not read gives up at its deadline", "[control]") {
  auto pair = ibkit::test::channel_pair();
  const std::string blob(60000, 'x');
  const auto start = Clock::now();
  Expected<Done> sent = Done{};
  // Fill both socket buffers; the peer never reads.
  while (sent.ok() && seconds_since(start) < 10) {
    sent = pair.client->send({{"blob", blob}}, Deadline::after(std::chrono::milliseconds(300)));
  }
  REQUIRE_FALSE(sent.ok());
  CHECK(seconds_since(start) < 10);
  CHECK_THAT(sent.error().message, Catch::Contains("the peer is not reading"));
}

TEST_CASE("an error message from the peer becomes the Error of receive_type", "[control]") {
  auto pair = ibkit::test::channel_pair();
  send_error(*pair.server, "busy: try later", Deadline::after_seconds(2));
  auto received = receive_type(*pair.client, "hello", Deadline::after_seconds(2));
  REQUIRE_FALSE(received.ok());
  CHECK(received.error().message == "peer 127.0.0.1 refused: busy: try later");

  REQUIRE(pair.server->send({{"type", "other"}}, Deadline::after_seconds(2)).ok());
  auto wrong = receive_type(*pair.client, "hello", Deadline::after_seconds(2));
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.error().message, Catch::Contains("sent a \"other\" message where \"hello\""));

  REQUIRE(pair.server->send({{"no", "type"}}, Deadline::after_seconds(2)).ok());
  CHECK_FALSE(receive_type(*pair.client, "hello", Deadline::after_seconds(2)).ok());
}

TEST_CASE("connect and accept honour their deadlines", "[control]") {
  auto listener = Listener::open("127.0.0.1", 0);
  REQUIRE(listener.ok());
  auto start = Clock::now();
  auto nobody = listener->accept(Deadline::after(std::chrono::milliseconds(200)));
  REQUIRE_FALSE(nobody.ok());
  CHECK(seconds_since(start) < 1.2);
  CHECK_THAT(nobody.error().message, Catch::Contains("no peer came within 0.2"));

  const std::uint16_t closed_port = listener->local().port;
  listener = Listener::open("127.0.0.1", 0);  // the old port now refuses
  auto refused = connect_tcp("127.0.0.1", closed_port, Deadline::after_seconds(2));
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message,
             Catch::Contains("connect to 127.0.0.1:" + std::to_string(closed_port)));

  // An address that does not answer (or has no route here) fails within the deadline either way.
  start = Clock::now();
  auto silent = connect_tcp("192.0.2.1", 9, Deadline::after(std::chrono::milliseconds(300)));
  REQUIRE_FALSE(silent.ok());
  CHECK(seconds_since(start) < 1.3);
}

TEST_CASE("the channel works over IPv6 when the host has it", "[control]") {
  auto listener = Listener::open("::1", 0);
  if (!listener) {
    skip_test("no IPv6 loopback here (" + listener.error().message + ")");
    return;
  }
  auto client = connect_tcp("::1", listener->local().port, Deadline::after_seconds(2));
  REQUIRE(client.ok());
  auto accepted = listener->accept(Deadline::after_seconds(2));
  REQUIRE(accepted.ok());
  TcpChannel a(std::move(*client));
  TcpChannel b(std::move(*accepted));
  REQUIRE(a.send({{"type", "hello"}}, Deadline::after_seconds(2)).ok());
  CHECK(receive_type(b, "hello", Deadline::after_seconds(2)).ok());
  CHECK(a.peer_address() == "::1");
  CHECK(b.socket().peer().label().rfind("[::1]:", 0) == 0);
}

TEST_CASE("a dual-stack listener names IPv4 peers as IPv4", "[control]") {
  auto listener = Listener::open("", 0);
  REQUIRE(listener.ok());
  auto client = connect_tcp("127.0.0.1", listener->local().port, Deadline::after_seconds(2));
  REQUIRE(client.ok());
  auto accepted = listener->accept(Deadline::after_seconds(2));
  REQUIRE(accepted.ok());
  CHECK(accepted->peer().address == "127.0.0.1");
  CHECK(accepted->local().address == "127.0.0.1");
}

TEST_CASE("shut_down wakes a receive blocked on another thread", "[control]") {
  auto pair = ibkit::test::channel_pair();
  const auto start = Clock::now();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pair.server->shut_down();
  });
  auto received = pair.server->receive(Deadline::after_seconds(5));
  stopper.join();
  CHECK_FALSE(received.ok());
  CHECK(seconds_since(start) < 2);
}
