#include <chrono>
#include <filesystem>

#include <catch2/catch.hpp>

#include "control_test_support.hpp"
#include "run_ibkit.hpp"

using ibkit::test::run_ibkit;

TEST_CASE("a long-running server without a key file is a usage error with the fix",
          "[control][cli]") {
  auto outcome = run_ibkit("serve --port 0");
  CHECK(outcome.exit_code == 2);
  CHECK_THAT(outcome.err, Catch::Contains("needs --key-file FILE"));
  CHECK_THAT(outcome.err, Catch::Contains("openssl rand -hex 32"));
}

TEST_CASE("a server without a key listens on loopback only", "[control][cli]") {
  for (const char* bind : {"", "--bind 0.0.0.0 ", "--bind :: ", "--bind 10.1.2.3 "}) {
    auto outcome = run_ibkit(std::string("serve --once --port 0 ") + bind + "--deadline 0.2");
    INFO(bind << outcome.err);
    CHECK(outcome.exit_code == 2);
    CHECK_THAT(outcome.err,
               Catch::Contains("a server without --key-file listens on loopback only"));
    CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
  }
  for (const char* bind : {"127.0.0.1", "127.0.0.2", "::1"}) {
    auto outcome = run_ibkit(std::string("serve --once --port 0 --deadline 0.2 --bind ") + bind);
    INFO(bind << outcome.err);
    if (std::string(bind) == "::1" && outcome.exit_code == 3) continue;  // no IPv6 here
    CHECK(outcome.exit_code == 1);                                       // nobody came
    CHECK_THAT(outcome.err, Catch::Contains("no key (plain frames, loopback only)"));
  }
}

TEST_CASE("a --once server with nobody coming exits 1 within its deadline", "[control][cli]") {
  const auto start = std::chrono::steady_clock::now();
  auto outcome = run_ibkit("serve --once --port 0 --bind 127.0.0.1 --deadline 0.4");
  CHECK(ibkit::test::seconds_since(start) < 3);
  CHECK(outcome.exit_code == 1);
  CHECK_THAT(outcome.err, Catch::Contains("listening on 127.0.0.1:"));
  CHECK_THAT(outcome.err, Catch::Contains("no peer came within 0.4 s"));
}

TEST_CASE("a key file open to others, a bad address and bad numbers are usage errors",
          "[control][cli]") {
  auto open_key = ibkit::test::write_key_file("cli-open.key", "secret\n", 0644);
  auto outcome = run_ibkit("serve --port 0 --key-file " + open_key);
  CHECK(outcome.exit_code == 2);
  CHECK_THAT(outcome.err, Catch::Contains("chmod 600 " + open_key));
  std::filesystem::remove(open_key);

  auto bad_bind = run_ibkit("serve --once --bind not-an-address");
  CHECK(bad_bind.exit_code == 2);
  CHECK_THAT(bad_bind.err, Catch::Contains("--bind not-an-address: not a numeric"));

  CHECK(run_ibkit("serve --once --deadline -1").exit_code == 2);
  CHECK(run_ibkit("serve --once --deadline 0").exit_code == 2);
  CHECK(run_ibkit("serve --once --port 70000").exit_code == 2);
  CHECK(run_ibkit("serve --once --session-timeout 0").exit_code == 2);
}

TEST_CASE("a port that is taken is an environment error naming it", "[control][cli]") {
  auto taken = ibkit::Listener::open("127.0.0.1", 0);
  REQUIRE(taken.ok());
  auto outcome = run_ibkit("serve --once --deadline 1 --bind 127.0.0.1 --port " +
                           std::to_string(taken->local().port));
  CHECK(outcome.exit_code == 3);
  CHECK_THAT(outcome.err,
             Catch::Contains("listen on 127.0.0.1:" + std::to_string(taken->local().port)));
}
