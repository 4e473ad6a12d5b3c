#include "util/rate_limit.hpp"

#include <catch2/catch.hpp>

using ibkit::RateLimit;
using namespace std::chrono_literals;

TEST_CASE("a rate limit lets one event through per interval and counts the others", "[util]") {
  RateLimit limit(10s);
  const auto t0 = RateLimit::Clock::time_point{} + 1h;
  auto first = limit.admit(t0);
  REQUIRE(first);
  CHECK(*first == 0);
  CHECK_FALSE(limit.admit(t0 + 1s));
  CHECK_FALSE(limit.admit(t0 + 9s));
  CHECK(limit.held_back() == 2);
  auto next = limit.admit(t0 + 10s);
  REQUIRE(next);
  CHECK(*next == 2);  // the line it allows says how many it stands for
  CHECK(limit.held_back() == 0);
  CHECK_FALSE(limit.admit(t0 + 19s));
  CHECK(limit.held_back() == 1);
}
