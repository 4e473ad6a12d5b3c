#include <array>
#include <atomic>
#include <future>
#include <mutex>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "control/tls_channel.hpp"
#include "control_test_support.hpp"

using namespace ibkit;
using ibkit::test::seconds_since;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

const SharedKey kKey{"tls-unit-test-key"};

TlsContext context(TlsContext::Role role, const SharedKey& key) {
  auto made = TlsContext::create(role, key);
  REQUIRE(made.ok());
  return std::move(*made);
}

struct TlsEnds {
  Expected<std::unique_ptr<TlsChannel>> client = Error{};
  Expected<std::unique_ptr<TlsChannel>> server = Error{};
};

// Both handshakes over `sockets`, the server's on its own thread.
TlsEnds handshake(ibkit::test::SocketPair sockets, const SharedKey& client_key,
                  const SharedKey& server_key, const Deadline& deadline) {
  const TlsContext client_context = context(TlsContext::Role::kClient, client_key);
  const TlsContext server_context = context(TlsContext::Role::kServer, server_key);
  auto server = std::async(std::launch::async, [&] {
    return TlsChannel::accept(std::move(*sockets.server), server_context, deadline);
  });
  TlsEnds ends;
  ends.client = TlsChannel::connect(std::move(*sockets.client), client_context, deadline);
  ends.server = server.get();
  return ends;
}

TlsEnds handshake(const SharedKey& client_key, const SharedKey& server_key) {
  return handshake(ibkit::test::loopback_pair(), client_key, server_key, Deadline::after(5s));
}

// A TCP relay on loopback between a client and a server, as an on-path attacker without the
// key would run it: it records what the client sends and may flip a bit in one TLS record.
class Relay {
 public:
  // `tamper_record`: the index (from 0) of the client's application-data record (type 23) to
  // flip a bit in; -1 for none. Record 0 is the client's Finished, record 1 its first frame.
  Relay(std::uint16_t server_port, int tamper_record) : tamper_record_(tamper_record) {
    auto listener = Listener::open("127.0.0.1", 0);
    REQUIRE(listener.ok());
    port_ = listener->local().port;
    listener_ = std::make_unique<Listener>(std::move(*listener));
    thread_ = std::thread([this, server_port] { run(server_port); });
  }
  ~Relay() {
    stop_ = true;
    thread_.join();
  }
  std::uint16_t port() const { return port_; }
  std::string client_bytes() {
    std::lock_guard lock(mutex_);
    return recorded_;
  }
  bool tampered() const { return tampered_; }

 private:
  void run(std::uint16_t server_port) {
    auto client = listener_->accept(Deadline::after(5s));
    if (!client) return;
    auto server = connect_tcp("127.0.0.1", server_port, Deadline::after(5s));
    if (!server) return;
    std::string pending;  // client bytes not forwarded yet: an incomplete record
    std::array<char, 65536> buffer{};
    while (!stop_) {
      std::array<pollfd, 2> fds{{{client->fd(), POLLIN, 0}, {server->fd(), POLLIN, 0}}};
      if (poll(fds.data(), fds.size(), 50) <= 0) continue;
      if (fds[0].revents != 0) {
        const ssize_t n = recv(client->fd(), buffer.data(), buffer.size(), 0);
        if (n <= 0) break;
        pending.append(buffer.data(), static_cast<std::size_t>(n));
        {
          std::lock_guard lock(mutex_);
          recorded_.append(buffer.data(), static_cast<std::size_t>(n));
        }
        forward_records(pending, *server);
      }
      if (fds[1].revents != 0) {
        const ssize_t n = recv(server->fd(), buffer.data(), buffer.size(), 0);
        if (n <= 0) break;
        if (!client->send_all(buffer.data(), static_cast<std::size_t>(n), Deadline::after(2s))) {
          break;
        }
      }
    }
  }

  // Forwards every whole TLS record in `pending` (5-byte header: type, version, length),
  // flipping a bit in the one to tamper with.
  void forward_records(std::string& pending, Socket& server) {
    while (pending.size() >= 5) {
      const std::size_t length =
          (static_cast<unsigned char>(pending[3]) << 8) | static_cast<unsigned char>(pending[4]);
      if (pending.size() < 5 + length) return;
      std::string record = pending.substr(0, 5 + length);
      pending.erase(0, 5 + length);
      if (record[0] == 23 && application_records_++ == tamper_record_) {
        record[5 + length / 2] = static_cast<char>(record[5 + length / 2] ^ 0x01);
        tampered_ = true;
      }
      if (!server.send_all(record.data(), record.size(), Deadline::after(2s))) return;
    }
  }

  int tamper_record_;
  int application_records_ = 0;
  std::atomic<bool> tampered_{false};
  std::atomic<bool> stop_{false};
  std::unique_ptr<Listener> listener_;
  std::uint16_t port_ = 0;
  std::mutex mutex_;
  std::string recorded_;
  std::thread thread_;
};

// A connection from a client through `relay` to a listener, and both handshakes.
TlsEnds handshake_through(Relay& relay, Listener& listener) {
  auto client = connect_tcp("127.0.0.1", relay.port(), Deadline::after(2s));
  REQUIRE(client.ok());
  auto server = listener.accept(Deadline::after(2s));
  REQUIRE(server.ok());
  ibkit::test::SocketPair sockets{std::make_unique<Socket>(std::move(*client)),
                                  std::make_unique<Socket>(std::move(*server))};
  return handshake(std::move(sockets), kKey, kKey, Deadline::after(5s));
}

}  // namespace

TEST_CASE("TLS: the same key on both ends carries frames both ways", "[control]") {
  auto ends = handshake(kKey, kKey);
  REQUIRE(ends.client.ok());
  REQUIRE(ends.server.ok());
  TlsChannel& client = **ends.client;
  TlsChannel& server = **ends.server;
  nlohmann::json request = {{"type", "request"}, {"sizes", {2, 65536}}, {"text", "μs ✓"}};
  REQUIRE(client.send(request, Deadline::after(2s)).ok());
  auto received = server.receive(Deadline::after(2s));
  REQUIRE(received.ok());
  CHECK(*received == request);
  // A frame at the limit spans several TLS records.
  nlohmann::json big = {{"type", "result"}, {"pad", std::string(kMaxFrameBytes - 40, 'x')}};
  REQUIRE(server.send(big, Deadline::after(2s)).ok());
  auto back = receive_type(client, "result", Deadline::after(2s));
  REQUIRE(back.ok());
  CHECK(*back == big);
  CHECK(client.peer_address() == "127.0.0.1");
}

TEST_CASE("TLS: a wrong key fails the handshake on both ends with one clear line", "[control]") {
  const auto start = Clock::now();
  auto ends = handshake(SharedKey{"not-the-key"}, kKey);
  CHECK(seconds_since(start) < 2);
  REQUIRE_FALSE(ends.client.ok());
  REQUIRE_FALSE(ends.server.ok());
  for (const auto* end : {&ends.client, &ends.server}) {
    const std::string& message = end->error().message;
    CHECK_THAT(message, Catch::Matches("peer 127\\.0\\.0\\.1:\\d+: the peer does not hold this key "
                                       "\\(TLS handshake failed\\)"));
  }
}

TEST_CASE("TLS: a server that never answers is cut off at the client's deadline", "[control]") {
  // A listener nobody accepts from: the kernel completes the TCP handshake, nothing answers the
  // ClientHello.
  auto listener = Listener::open("127.0.0.1", 0);
  REQUIRE(listener.ok());
  auto socket = connect_tcp("127.0.0.1", listener->local().port, Deadline::after(2s));
  REQUIRE(socket.ok());
  const TlsContext client = context(TlsContext::Role::kClient, kKey);
  const auto start = Clock::now();
  auto channel = TlsChannel::connect(std::move(*socket), client, Deadline::after(300ms));
  const double waited = seconds_since(start);
  REQUIRE_FALSE(channel.ok());
  CHECK(waited >= 0.29);
  CHECK(waited < 1.3);
  // The wait it names starts after the TLS setup, which the 300 ms deadline already counts: a
  // slow setup (an ASan build on a busy machine) leaves 0.29 s of it, so 0.2x passes too.
  CHECK_THAT(channel.error().message,
             Catch::Matches("peer 127\\.0\\.0\\.1:\\d+ sent nothing for 0\\.(2\\d|3\\d?) s "
                            "\\(deadline passed\\) while waiting for the TLS handshake"));
}

TEST_CASE("TLS: a client that stalls in the middle of its handshake is cut off at the deadline",
          "[control]") {
  auto sockets = ibkit::test::loopback_pair();
  // The start of a ClientHello record that promises 512 bytes, then nothing.
  const std::string partial{"\x16\x03\x01\x02\x00\x01\x00", 7};
  REQUIRE(::send(sockets.client->fd(), partial.data(), partial.size(), MSG_NOSIGNAL) == 7);
  const TlsContext server = context(TlsContext::Role::kServer, kKey);
  const auto start = Clock::now();
  auto channel = TlsChannel::accept(std::move(*sockets.server), server, Deadline::after(300ms));
  REQUIRE_FALSE(channel.ok());
  CHECK(seconds_since(start) < 1.3);
  CHECK_THAT(channel.error().message,
             Catch::Contains("stalled in the middle of the TLS handshake") &&
                 Catch::Contains("deadline passed"));
}

TEST_CASE("TLS: a client that speaks no TLS is refused with the reason, not a crash", "[control]") {
  auto sockets = ibkit::test::loopback_pair();
  const std::string http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  REQUIRE(::send(sockets.client->fd(), http.data(), http.size(), MSG_NOSIGNAL) > 0);
  const TlsContext server = context(TlsContext::Role::kServer, kKey);
  auto channel = TlsChannel::accept(std::move(*sockets.server), server, Deadline::after(2s));
  REQUIRE_FALSE(channel.ok());
  CHECK_THAT(channel.error().message, Catch::Contains("TLS handshake failed"));
}

TEST_CASE("TLS: the PSK is HKDF-SHA256 of the key, as docs/protocol.md says", "[control]") {
  // openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:abc123
  //   -kdfopt info:"ibkit/2 tls13 external psk" HKDF
  auto psk = derive_psk(SharedKey{"abc123"});
  REQUIRE(psk.ok());
  std::string hex;
  for (unsigned char byte : *psk) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 0xf];
  }
  CHECK(hex == "3297446c3a9890031303ad59f9dd09df02397d9f7d271dcb490510e5f8ccde40");
  auto other = derive_psk(SharedKey{"abc124"});
  REQUIRE(other.ok());
  CHECK(*other != *psk);
}

TEST_CASE("TLS: a relay without the key reads no frame and cannot alter one", "[control]") {
  auto listener = Listener::open("127.0.0.1", 0);
  REQUIRE(listener.ok());
  const nlohmann::json request = {{"type", "request"}, {"test", "drive-marker-4711"}};

  SECTION("what the relay carries is not the frames' text") {
    Relay relay(listener->local().port, -1);
    auto ends = handshake_through(relay, *listener);
    REQUIRE(ends.client.ok());
    REQUIRE(ends.server.ok());
    REQUIRE((*ends.client)->send(request, Deadline::after(2s)).ok());
    auto received = (*ends.server)->receive(Deadline::after(2s));
    REQUIRE(received.ok());
    CHECK(*received == request);
    const std::string seen = relay.client_bytes();
    CHECK(seen.size() > 100);
    CHECK(seen.find("drive-marker-4711") == std::string::npos);
    CHECK(seen.find("\"type\"") == std::string::npos);
    CHECK(seen.find(kKey.bytes) == std::string::npos);
  }

  SECTION("a flipped bit in a frame ends the connection instead of delivering it") {
    Relay relay(listener->local().port, 1);
    auto ends = handshake_through(relay, *listener);
    REQUIRE(ends.client.ok());
    REQUIRE(ends.server.ok());
    REQUIRE((*ends.client)->send(request, Deadline::after(2s)).ok());
    auto received = (*ends.server)->receive(Deadline::after(2s));
    CHECK(relay.tampered());
    REQUIRE_FALSE(received.ok());
    CHECK_THAT(received.error().message,
               Catch::Contains("failed its integrity check") &&
                   Catch::Contains("the connection was altered on its way"));
    // Nothing more comes through that connection.
    CHECK_FALSE((*ends.server)->receive(Deadline::after(200ms)).ok());
  }
}

TEST_CASE("TLS: a peer that goes away is reported as closing, mid-frame or between frames",
          "[control]") {
  auto ends = handshake(kKey, kKey);
  REQUIRE(ends.client.ok());
  REQUIRE(ends.server.ok());
  ends.client.value().reset();  // close_notify, then the socket closes
  const auto start = Clock::now();
  auto received = (*ends.server)->receive(Deadline::after(5s));
  REQUIRE_FALSE(received.ok());
  CHECK(seconds_since(start) < 1);
  CHECK_THAT(received.error().message,
             Catch::Matches("peer 127\\.0\\.0\\.1:\\d+ closed the connection"));
}

TEST_CASE("TLS: a receive from a silent peer gives up at its deadline, and shut_down wakes one",
          "[control]") {
  auto ends = handshake(kKey, kKey);
  REQUIRE(ends.client.ok());
  REQUIRE(ends.server.ok());
  auto start = Clock::now();
  auto silent = (*ends.server)->receive(Deadline::after(300ms));
  REQUIRE_FALSE(silent.ok());
  CHECK(seconds_since(start) < 1.3);
  CHECK_THAT(silent.error().message,
             Catch::Contains("sent nothing for 0.3") && Catch::Contains("a frame header"));

  start = Clock::now();
  std::thread stopper([&] {
    std::this_thread::sleep_for(100ms);
    (*ends.client)->shut_down();
  });
  auto woken = (*ends.client)->receive(Deadline::after(5s));
  stopper.join();
  CHECK_FALSE(woken.ok());
  CHECK(seconds_since(start) < 2);
}
