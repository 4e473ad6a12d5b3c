#include <filesystem>
#include <future>

#include <catch2/catch.hpp>

#include "peer/auth.hpp"
#include "peer_test_support.hpp"

using namespace ibkit;
using ibkit::test::write_key_file;

namespace {

struct Handshake {
  Expected<Done> server = Done{};
  Expected<Done> client = Done{};
};

// Runs both halves of the handshake over loopback, the server's on its own thread.
Handshake handshake(const std::optional<SharedKey>& server_key,
                    const std::optional<SharedKey>& client_key) {
  auto pair = ibkit::test::channel_pair();
  auto server = std::async(std::launch::async, [&] {
    return authenticate_client(*pair.server, server_key, Deadline::after_seconds(5));
  });
  Handshake result;
  result.client = authenticate_server(*pair.client, client_key, Deadline::after_seconds(5));
  result.server = server.get();
  return result;
}

}  // namespace

TEST_CASE("the same key on both ends authenticates both ways") {
  auto outcome = handshake(SharedKey{"s3cret"}, SharedKey{"s3cret"});
  CHECK(outcome.server.ok());
  CHECK(outcome.client.ok());
}

TEST_CASE("no key on either end is accepted (a --once server)") {
  auto outcome = handshake(std::nullopt, std::nullopt);
  CHECK(outcome.server.ok());
  CHECK(outcome.client.ok());
}

TEST_CASE("a wrong key is refused with a clear message on both ends") {
  auto outcome = handshake(SharedKey{"right"}, SharedKey{"wrong"});
  REQUIRE_FALSE(outcome.server.ok());
  REQUIRE_FALSE(outcome.client.ok());
  CHECK_THAT(outcome.server.error().message,
             Catch::Contains("authentication failed: the client's key differs"));
  CHECK_THAT(outcome.client.error().message,
             Catch::Contains("refused: authentication failed: the client's key differs"));
}

TEST_CASE("a client without a key is refused by a server that has one") {
  auto outcome = handshake(SharedKey{"right"}, std::nullopt);
  REQUIRE_FALSE(outcome.server.ok());
  REQUIRE_FALSE(outcome.client.ok());
  CHECK_THAT(outcome.client.error().message, Catch::Contains("requires a shared key"));
  CHECK_THAT(outcome.server.error().message, Catch::Contains("requires a shared key"));
}

TEST_CASE("a client with a key refuses a server that cannot prove it") {
  auto outcome = handshake(std::nullopt, SharedKey{"mine"});
  REQUIRE_FALSE(outcome.server.ok());
  REQUIRE_FALSE(outcome.client.ok());
  CHECK_THAT(outcome.client.error().message, Catch::Contains("runs without a key"));
  CHECK_THAT(outcome.server.error().message, Catch::Contains("runs without a key"));
}

TEST_CASE("a client that replays a bad proof or no nonce is refused") {
  auto pair = ibkit::test::channel_pair();
  auto server = std::async(std::launch::async, [&] {
    return authenticate_client(*pair.server, SharedKey{"k"}, Deadline::after_seconds(5));
  });
  auto hello = receive_type(*pair.client, "hello", Deadline::after_seconds(2));
  REQUIRE(hello.ok());
  CHECK(hello->at("protocol") == "ibkit/1");
  CHECK(hello->at("auth") == "hmac-sha256");
  CHECK(hello->at("nonce").get<std::string>().size() == 64);
  // Echoing the server's nonce back (a reflection attempt) is refused.
  pair.client->send({{"type", "auth"}, {"nonce", hello->at("nonce")}, {"mac", "00"}},
                    Deadline::after_seconds(2));
  auto refused = server.get();
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("echoed the server's nonce"));
}

TEST_CASE("a server that does not speak the protocol is refused by the client") {
  auto pair = ibkit::test::channel_pair();
  pair.server->send({{"type", "hello"}, {"protocol", "other/9"}}, Deadline::after_seconds(2));
  auto client = authenticate_server(*pair.client, std::nullopt, Deadline::after_seconds(2));
  REQUIRE_FALSE(client.ok());
  CHECK_THAT(client.error().message, Catch::Contains("speaks \"other/9\""));
}

TEST_CASE("two hellos carry different nonces") {
  CHECK(random_hex(32) != random_hex(32));
  CHECK(random_hex(16).size() == 32);
}

TEST_CASE("a key file is read without its trailing newline") {
  auto path = write_key_file("good.key", "abc123\n", 0600);
  auto key = load_key_file(path);
  REQUIRE(key.ok());
  CHECK(key->bytes == "abc123");
  std::filesystem::remove(path);
}

TEST_CASE("a key file open to group or others is refused with the chmod fix") {
  auto path = write_key_file("open.key", "abc123\n", 0644);
  auto key = load_key_file(path);
  REQUIRE_FALSE(key.ok());
  CHECK_THAT(key.error().message, Catch::Contains("open to group or others (mode 0644)"));
  CHECK_THAT(key.error().message, Catch::Contains("run: chmod 600 " + path));
  std::filesystem::remove(path);

  auto group = write_key_file("group.key", "abc123\n", 0640);
  CHECK_FALSE(load_key_file(group).ok());
  std::filesystem::remove(group);
}

TEST_CASE("an empty, missing, oversized or non-regular key file is refused") {
  auto empty = write_key_file("empty.key", "\n  \n", 0600);
  auto refused = load_key_file(empty);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("is empty"));
  std::filesystem::remove(empty);

  auto missing = load_key_file("/nonexistent/ibkit.key");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message, Catch::Contains("key file /nonexistent/ibkit.key"));

  auto big = write_key_file("big.key", std::string(5000, 'k'), 0600);
  auto too_big = load_key_file(big);
  REQUIRE_FALSE(too_big.ok());
  CHECK_THAT(too_big.error().message, Catch::Contains("larger than 4096 bytes"));
  std::filesystem::remove(big);

  CHECK_FALSE(load_key_file(std::filesystem::temp_directory_path().string()).ok());
}
