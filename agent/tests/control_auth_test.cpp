#include <filesystem>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "control/auth.hpp"
#include "control_test_support.hpp"
#include "skip_test.hpp"

using namespace ibkit;
using ibkit::test::write_key_file;

TEST_CASE("random_hex gives fresh hex of the asked length", "[control]") {
  CHECK(random_hex(32) != random_hex(32));
  CHECK(random_hex(16).size() == 32);
}

// 32 hex digits: the shortest key a key file may hold.
const std::string kShortestKey = "0123456789abcdef0123456789abcdef";

TEST_CASE("a key file is read without its trailing newline", "[control]") {
  auto path = write_key_file("good.key", kShortestKey + "\n", 0600);
  auto key = load_key_file(path);
  REQUIRE(key.ok());
  CHECK(key->bytes == kShortestKey);
  std::filesystem::remove(path);
}

TEST_CASE("a key file shorter than 32 bytes is refused, naming the length and the fix",
          "[control]") {
  auto path = write_key_file("short.key", kShortestKey.substr(1) + "\n", 0600);
  auto key = load_key_file(path);
  REQUIRE_FALSE(key.ok());
  CHECK(key.error().message == "key file " + path +
                                   " holds 31 bytes; a key needs at least 32 (a short key can "
                                   "be guessed); create one with: (umask 077; openssl rand -hex "
                                   "32 > " +
                                   path + ")");
  std::filesystem::remove(path);
}

TEST_CASE("a key file another user owns is refused, whatever its mode", "[control]") {
  if (geteuid() != 0) ibkit::test::skip_test("giving a file to another user needs root");
  auto path = write_key_file("theirs.key", kShortestKey + "\n", 0600);
  REQUIRE(chown(path.c_str(), 65534, 65534) == 0);  // nobody
  auto key = load_key_file(path);
  REQUIRE_FALSE(key.ok());
  CHECK(key.error().message == "key file " + path +
                                   " belongs to uid 65534, not to the user running ibkit (uid "
                                   "0); make it yours: chown 0 " +
                                   path);
  std::filesystem::remove(path);
}

TEST_CASE("a key file open to group or others is refused with the chmod fix", "[control]") {
  auto path = write_key_file("open.key", kShortestKey + "\n", 0644);
  auto key = load_key_file(path);
  REQUIRE_FALSE(key.ok());
  CHECK_THAT(key.error().message, Catch::Contains("open to group or others (mode 0644)"));
  CHECK_THAT(key.error().message, Catch::Contains("run: chmod 600 " + path));
  std::filesystem::remove(path);

  auto group = write_key_file("group.key", kShortestKey + "\n", 0640);
  CHECK_FALSE(load_key_file(group).ok());
  std::filesystem::remove(group);
}

TEST_CASE("an empty, missing, oversized or non-regular key file is refused", "[control]") {
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
