#include "util/text_wrap.hpp"

#include <algorithm>

namespace ibkit {
namespace {

bool continues_character(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

// The byte offset where the character after the first `columns` of `text` starts, or its size.
std::size_t offset_after_columns(std::string_view text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (continues_character(text[i])) continue;
    if (seen == columns) return i;
    ++seen;
  }
  return text.size();
}

}  // namespace

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char byte) { return !continues_character(byte); }));
}

std::string_view without_trailing_spaces(std::string_view text) {
  const auto last = text.find_last_not_of(' ');
  return last == std::string_view::npos ? text.substr(0, 0) : text.substr(0, last + 1);
}

std::vector<std::string_view> wrap_text(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::vector<std::string_view> lines;
  for (;;) {
    const std::size_t fits = offset_after_columns(text, width);
    const std::size_t next_word = text.find_first_not_of(' ', fits);
    if (next_word == std::string_view::npos) break;
    std::size_t cut = fits;
    if (next_word > fits) {
      cut = next_word;  // the width ends in spaces: they close this line
    } else if (const std::size_t space = text.rfind(' ', fits - 1);
               space != std::string_view::npos && text.find_first_not_of(' ') < space) {
      cut = space + 1;
    }
    lines.push_back(text.substr(0, cut));
    text.remove_prefix(cut);
  }
  lines.push_back(text);
  return lines;
}

}  // namespace ibkit
