#include <filesystem>

#include <catch2/catch.hpp>

#include "peer/auth.hpp"
#include "peer_test_support.hpp"

using namespace ibkit;
using ibkit::test::write_key_file;

TEST_CASE("random_hex gives fresh hex of the asked length", "[peer]") {
  CHECK(random_hex(32) != random_hex(32));
  CHECK(random_hex(16).size() == 32);
}

TEST_CASE("a key file is read without its trailing newline", "[peer]") {
  auto path = write_key_file("good.key", "abc123\n", 0600);
  auto key = load_key_file(path);
  REQUIRE(key.ok());
  CHECK(key->bytes == "abc123");
  std::filesystem::remove(path);
}

TEST_CASE("a key file open to group or others is refused with the chmod fix", "[peer]") {
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

TEST_CASE("an empty, missing, oversized or non-regular key file is refused", "[peer]") {
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
