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

TEST_CASE("terminal_safe shows every control visibly and keeps UTF-8", "[util]") {
  // What an audit put in a node description: erase the line, back to its start, write "pass".
  CHECK(ibkit::terminal_safe("\x1b[2K\rpass") == "\\x1b[2K\\rpass");
  CHECK(ibkit::terminal_safe("bell\a tab\t lf\n nul" + std::string(1, '\0')) ==
        "bell\\x07 tab\\t lf\\n nul\\x00");
  CHECK(ibkit::terminal_safe("del\x7f") == "del\\x7f");
  // U+009B is CSI, ESC [ in one character, to a terminal that takes C1 controls in UTF-8.
  CHECK(ibkit::terminal_safe("\xc2\x9b"
                             "2J \xc2\x80") == "\\u009b2J \\u0080");
  // A byte that is not UTF-8 is shown as the byte it is: 0x9b alone is CSI on a Latin-1 terminal.
  CHECK(ibkit::terminal_safe("\x9b"
                             "2J \xff \xc3") == "\\x9b2J \\xff \\xc3");
  CHECK(ibkit::terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  // Text with nothing to hide is unchanged, U+00A0 (the first past C1) and emoji too.
  const std::string plain = "mlx5_0 caf\xc3\xa9 \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80 a\\b \"q\"";
  CHECK(ibkit::terminal_safe(plain) == plain);
  CHECK(ibkit::terminal_safe("").empty());
}

TEST_CASE("terminal_safe_lines keeps line feeds and shows the rest as terminal_safe does",
          "[util]") {
  CHECK(ibkit::terminal_safe_lines("one\ntwo\r\x1b[H") == "one\ntwo\\r\\x1b[H");
}

TEST_CASE("quoted_excerpt shows controls as terminal_safe does and cuts between characters",
          "[util]") {
  CHECK(ibkit::quoted_excerpt("\x1b[2J\rjunk\nsecond line") == "\\x1b[2J\\rjunk");
  CHECK(ibkit::quoted_excerpt("\xc2\x9b"
                              "31m") == "\\u009b31m");
  // "é" is two bytes: a cut after its first shows none of it, not a stray byte.
  CHECK(ibkit::quoted_excerpt("ab\xc3\xa9xyz", 3) == "ab...");
}

TEST_CASE("escaped_excerpt keeps what follows a line feed, escaped, where quoted_excerpt stops",
          "[util]") {
  CHECK(ibkit::escaped_excerpt("login1\n") == "login1\\n");
  CHECK(ibkit::escaped_excerpt("a\nb\x1b", 3) == "a\\nb...");
  CHECK(ibkit::quoted_excerpt("login1\n") == "login1");
}
