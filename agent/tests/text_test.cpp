#include "util/text.hpp"

#include <string>
#include <vector>

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

TEST_CASE("valid_utf8 keeps well-formed UTF-8 and replaces every byte of anything else", "[util]") {
  const std::string replacement = "\xEF\xBF\xBD";
  CHECK(ibkit::valid_utf8("mlx5_0 caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "mlx5_0 caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(ibkit::valid_utf8("\xff") == replacement);                    // never a lead byte
  CHECK(ibkit::valid_utf8("\x80z") == replacement + "z");             // a stray continuation byte
  CHECK(ibkit::valid_utf8("\xc3") == replacement);                    // cut short
  CHECK(ibkit::valid_utf8("\xc0\xaf") == replacement + replacement);  // overlong '/'
  CHECK(ibkit::valid_utf8("\xe0\x80\xaf") == replacement + replacement + replacement);
  CHECK(ibkit::valid_utf8("\xed\xa0\x80") == replacement + replacement + replacement);  // surrogate
  CHECK(ibkit::valid_utf8("\xf4\x90\x80\x80") ==
        replacement + replacement + replacement + replacement);  // beyond U+10FFFF
  CHECK(ibkit::valid_utf8("") == "");
}

TEST_CASE("join_capped names the first few and counts the rest", "[util]") {
  const std::vector<std::string> nodes = {"n1", "n2", "n3", "n4"};
  CHECK(ibkit::join_capped(nodes, 4, ", ") == "n1, n2, n3, n4");
  CHECK(ibkit::join_capped(nodes, 2, ", ") == "n1, n2 and 2 more");
  CHECK(ibkit::join_capped(nodes, 0, ", ") == "4 more");
  // Items with commas of their own are listed with "; ", and so is the rest.
  CHECK(ibkit::join_capped({"sw1 port 3: a, b", "sw2 port 1: c"}, 1, "; ") ==
        "sw1 port 3: a, b; and 1 more");
  CHECK(ibkit::join_capped({}, 3, ", ").empty());
}
