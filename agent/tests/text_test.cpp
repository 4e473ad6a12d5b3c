#include "util/text.hpp"

#include <string>

#include <catch2/catch.hpp>

TEST_CASE("format_number: at most the decimals asked for, trailing zeros dropped", "[util]") {
  CHECK(ibkit::format_number(1.5) == "1.5");
  CHECK(ibkit::format_number(2.0) == "2");
  CHECK(ibkit::format_number(0.123456, 3) == "0.123");
  CHECK(ibkit::format_number(-1.25, 1) == "-1.2");
}

TEST_CASE("format_number: a huge figure is written whole, never cut off", "[util]") {
  // 1e300 was cut at 63 characters: a wrong number that looked right.
  const std::string text = ibkit::format_number(1e300, 1);
  CHECK(text.size() == 301);
  CHECK(text.rfind("10000000000000000525", 0) == 0);
}
