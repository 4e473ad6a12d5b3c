// The limits an error counter's rise is judged by as a rate (config/error_rate_limits.hpp).
#include <catch2/catch.hpp>

#include "config/error_rate_limits.hpp"

using namespace ibkit;

TEST_CASE("error rate limits: the IBTA bit error rate by the data rate, configured limits win",
          "[config]") {
  CHECK(ber_errors_per_hour(200) == Approx(720));  // 4X HDR
  const CounterRateLimit by_rate = error_rate_limit({}, "symbol_error", 200.0);
  REQUIRE(by_rate.per_hour);
  CHECK(*by_rate.per_hour == Approx(720));
  CHECK_THAT(by_rate.per_hour_source, Catch::Contains("200 Gb/s"));

  // Without the data rate a default that needs it is left out.
  CHECK_FALSE(error_rate_limit({}, "symbol_error", std::nullopt).per_hour);

  ErrorRateLimits configured;
  configured.per_hour["symbol_error"] = 5;
  const CounterRateLimit set = error_rate_limit(configured, "symbol_error", 200.0);
  REQUIRE(set.per_hour);
  CHECK(*set.per_hour == 5);
  CHECK_THAT(set.per_hour_source, Catch::Contains("[limits] symbol_error_per_hour"));
}
