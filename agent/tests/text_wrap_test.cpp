// Wrapping text to a width (util/text_wrap.hpp): what the text reports' tables and long reasons
// are cut with (issue 50: cells of 330-600 characters broke the columns).
#include "util/text_wrap.hpp"

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "word_text.hpp"

namespace ibkit {
namespace {

std::string concatenated(const std::vector<std::string_view>& lines) {
  std::string text;
  for (const auto line : lines) text += line;
  return text;
}

// Exactly `size` bytes of words (the last one may be cut).
std::string words_of(std::size_t size) { return test::words_of(size).substr(0, size); }

}  // namespace

TEST_CASE("display_width counts characters, not the bytes of UTF-8", "[util]") {
  CHECK(display_width("") == 0);
  CHECK(display_width("mlx5_0") == 6);
  CHECK(display_width("caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80") == 7);
}

TEST_CASE("wrap_text breaks at spaces, keeps every line within the width, and loses nothing",
          "[util]") {
  const std::string text = words_of(400);
  for (const std::size_t width : {1, 7, 20, 44, 99, 399, 400, 401}) {
    INFO("width " << width);
    const auto lines = wrap_text(text, width);
    CHECK(concatenated(lines) == text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      CHECK(display_width(without_trailing_spaces(lines[i])) <= width);
      CHECK_FALSE(without_trailing_spaces(lines[i]).empty());
      // Where a word fits, a line ends at a space: no word is cut in two.
      if (width >= 20 && i + 1 < lines.size()) CHECK(lines[i].back() == ' ');
    }
  }
  CHECK(wrap_text(text, 400).size() == 1);
  CHECK(wrap_text("ab cd", 2) == std::vector<std::string_view>{"ab ", "cd"});
  CHECK(wrap_text("ab   cd", 4) == std::vector<std::string_view>{"ab   ", "cd"});
  CHECK(wrap_text("ab cd  ", 5) == std::vector<std::string_view>{"ab cd  "});
}

TEST_CASE("wrap_text cuts a word wider than the width at the width, never inside a character",
          "[util]") {
  const std::string digits(400, '7');
  const auto lines = wrap_text(digits, 44);
  CHECK(concatenated(lines) == digits);
  REQUIRE(lines.size() == 10);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) CHECK(lines[i].size() == 44);

  // Three-byte characters: a cut between two of them, by count of characters.
  std::string euros;
  for (int i = 0; i < 10; ++i) euros += "\xe2\x82\xac";
  const auto cut = wrap_text(euros, 4);
  CHECK(concatenated(cut) == euros);
  REQUIRE(cut.size() == 3);
  CHECK(cut[0] == "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
  CHECK(display_width(cut[2]) == 2);

  // A run of spaces at the start is no place to break: the line is cut at the width instead.
  CHECK(wrap_text("   abcdef", 5) == std::vector<std::string_view>{"   ab", "cdef"});
}

TEST_CASE("wrap_text of empty text is one empty line, and a width of 0 counts as 1", "[util]") {
  CHECK(wrap_text("", 10) == std::vector<std::string_view>{""});
  CHECK(wrap_text("abc", 0) == std::vector<std::string_view>{"a", "b", "c"});
}

}  // namespace ibkit
