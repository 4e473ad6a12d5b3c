// The deadline every network wait takes.
#include "util/time/deadline.hpp"

#include <catch2/catch.hpp>

using ibkit::Deadline;

TEST_CASE("deadline: what is left is clamped to 0, and min picks the earlier", "[util]") {
  const Deadline past = Deadline::after_seconds(-1);
  CHECK(past.expired());
  CHECK(past.remaining_ms() == 0);
  const Deadline later = Deadline::after_seconds(3600);
  CHECK_FALSE(later.expired());
  CHECK(later.remaining_ms() > 3'500'000);
  CHECK(later.remaining_ms() <= 3'600'000);
  CHECK(later.min(past).time_point() == past.time_point());
  CHECK(past.min(later).time_point() == past.time_point());
  // Far beyond what poll() takes: INT_MAX, not a wrapped negative number.
  CHECK(Deadline::after_seconds(1e9).remaining_ms() == 2147483647);
}
