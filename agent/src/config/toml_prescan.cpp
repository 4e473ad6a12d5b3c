#include "config/toml_prescan.hpp"

#include <vector>

namespace ibkit {
namespace {

bool is_ascii(char c) { return static_cast<unsigned char>(c) < 0x80; }

// Whether toml++ 3.3's is_non_ascii_horizontal_whitespace reaches its unreachable branch on `c`:
// the blocks of 1018 code points from U+00A0 its table says may hold whitespace, less the ones
// that do.
bool toml_cannot_ask_about(char32_t c) {
  return (c >= 0xA1 && c <= 0x499) || (c >= 0x2C5E && c <= 0x3057 && c != 0x3000) ||
         (c >= 0xFB26 && c <= 0xFEFE);
}

// Walks TOML text and keeps, at each key, the depth it would have in the parsed tree. Keys
// sit below the last [table] header, or inside the inline tables and arrays of the value
// being read; a dotted key adds one level per dot.
class HazardScan {
 public:
  HazardScan(std::string_view text, int max_depth) : text_(text), max_(max_depth) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") at_ = 3;  // a byte order mark, which toml++ skips
  }

  std::optional<TomlHazard> first_hazard() {
    while (at_ < text_.size() && !found_) step();
    if (found_) return TomlHazard{*found_, line_};
    return std::nullopt;
  }

 private:
  struct Container {
    bool inline_table;  // else an array
    int depth;          // the depth its keys (inline table) or elements (array) start from
  };

  int base() const { return open_.empty() ? table_depth_ : open_.back().depth; }
  void check(int depth) {
    if (depth > max_) found(TomlHazard::Kind::too_deep);
  }
  void found(TomlHazard::Kind kind) {
    if (!found_) found_ = kind;
  }

  void step() {
    const char c = text_[at_];
    if (c == '\n') {
      ++line_;
      ++at_;
      if (open_.empty()) start_key();  // a value ends with its line unless a bracket is open
    } else if (c == '#') {
      while (at_ < text_.size() && text_[at_] != '\n') ++at_;
    } else if ((c == '"' || c == '\'') && token_start_) {
      skip_string();
      token_start_ = false;
      if (in_key_ && key_segments_ == 0) key_segments_ = 1;
    } else if (!is_ascii(c)) {
      found(TomlHazard::Kind::non_ascii);
    } else if (in_key_) {
      key_character(c);
    } else {
      value_character(c);
    }
  }

  void start_key() {
    in_key_ = true;
    key_segments_ = 0;
    token_start_ = true;
  }

  // Whether a quote here opens a string. Inside a bare token (1844'Ǚ', a'b') it does not: toml++
  // reads the token on, asking of each character whether it is whitespace, so what follows the
  // quote must be scanned like the token.
  void after(char c, bool opens_token) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') token_start_ = opens_token;
  }

  void key_character(char c) {
    if (c == '[' && open_.empty() && key_segments_ == 0) return table_header();
    ++at_;
    after(c, c == '.' || c == '=');
    if (c == ' ' || c == '\t' || c == '\r') return;
    if (c == '.') {
      ++key_segments_;
      check(base() + key_segments_);
    } else if (c == '=') {
      value_depth_ = base() + (key_segments_ == 0 ? 1 : key_segments_);
      check(value_depth_);
      in_key_ = false;
    } else if (c == '}' && !open_.empty()) {
      open_.pop_back();  // an empty inline table: {}
      in_key_ = false;
    } else if (key_segments_ == 0) {
      key_segments_ = 1;
    }
  }

  // A bracket opens an array or inline table only where a value starts: inside a bare token
  // (89'?[["""...) toml++ reads on to the token's end, and what follows is scanned as the token.
  void value_character(char c) {
    ++at_;
    const bool opens = token_start_ && (c == '[' || c == '{');
    after(c, opens || c == ',');
    if (c == '[' && opens) {
      open_.push_back({false, ++value_depth_});
      check(value_depth_);
    } else if (c == '{' && opens) {
      open_.push_back({true, value_depth_});
      start_key();
    } else if (c == ']' || c == '}') {
      if (!open_.empty()) open_.pop_back();
    } else if (c == ',' && !open_.empty()) {
      if (open_.back().inline_table) {
        start_key();
      } else {
        value_depth_ = open_.back().depth;
      }
    }
  }

  // [a.b.c] or [[a.b.c]]: the keys after it sit one level below its last name.
  void table_header() {
    const bool array_of_tables = text_.substr(at_, 2) == "[[";
    at_ += array_of_tables ? 2 : 1;
    table_depth_ = array_of_tables ? 2 : 1;
    token_start_ = true;
    while (at_ < text_.size() && text_[at_] != ']' && text_[at_] != '\n' && !found_) {
      const char c = text_[at_];
      if ((c == '"' || c == '\'') && token_start_) {
        skip_string();
        token_start_ = false;
        continue;
      }
      if (!is_ascii(c)) return found(TomlHazard::Kind::non_ascii);
      if (c == '.') check(++table_depth_);
      after(c, c == '.');
      ++at_;
    }
    for (int close = array_of_tables ? 2 : 1; close > 0 && at_ < text_.size() && text_[at_] == ']';
         --close)
      ++at_;
    key_segments_ = 0;
    token_start_ = false;  // only a comment may follow a header
  }

  bool three(char quote) const {
    return text_.size() - at_ >= 3 && text_[at_] == quote && text_[at_ + 1] == quote &&
           text_[at_ + 2] == quote;
  }

  // Skips a basic, literal or multi-line string; a single-line one also ends at its line's end
  // (where toml++ will say it is unterminated).
  void skip_string() {
    const char quote = text_[at_];
    const bool multi_line = three(quote);
    at_ += multi_line ? 3 : 1;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\\' && quote == '"') {
        if (multi_line && escapes_non_ascii()) return found(TomlHazard::Kind::non_ascii);
        if (at_ + 1 < text_.size() && text_[at_ + 1] == '\n') ++line_;
        at_ += 2;
        continue;
      }
      if (c == '\n') {
        if (!multi_line) return;
        ++line_;
      }
      if (c == quote && (!multi_line || three(quote))) {
        at_ += multi_line ? 3 : 1;
        // A multi-line string may end with one or two quotes of its own: """a""""".
        for (int extra = 0; multi_line && extra < 2 && at_ < text_.size() && text_[at_] == quote;
             ++extra)
          ++at_;
        return;
      }
      ++at_;
    }
  }

  // In a multi-line basic string, toml++ asks whether what follows a backslash is whitespace
  // (a line-ending backslash trims it), and goes on asking past spaces and line breaks. True
  // when that run ends at a non-ASCII character; line_ is then that character's line.
  bool escapes_non_ascii() {
    std::size_t next = at_ + 1;
    std::size_t lines = 0;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t' ||
                                   text_[next] == '\r' || text_[next] == '\n')) {
      if (text_[next] == '\n') ++lines;
      ++next;
    }
    if (next == text_.size() || is_ascii(text_[next])) return false;
    line_ += lines;
    return true;
  }

  std::string_view text_;
  int max_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::optional<TomlHazard::Kind> found_;
  int table_depth_ = 0;
  std::vector<Container> open_;
  bool in_key_ = true;
  bool token_start_ = true;
  int key_segments_ = 0;
  int value_depth_ = 0;
};

}  // namespace

std::optional<TomlHazard> first_toml_hazard(std::string_view text, int max_depth) {
  return HazardScan(text, max_depth).first_hazard();
}

std::string toml_safe_text(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const std::size_t length = (lead & 0xE0) == 0xC0   ? 2
                               : (lead & 0xF0) == 0xE0 ? 3
                               : (lead & 0xF8) == 0xF0 ? 4
                                                       : 1;
    char32_t code = lead & (0x7F >> length);
    bool whole = length > 1 && at + length <= text.size();
    for (std::size_t i = 1; whole && i < length; ++i) {
      const auto next = static_cast<unsigned char>(text[at + i]);
      whole = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    if (whole && toml_cannot_ask_about(code)) {
      safe += "\xEF\xBF\xBD";  // U+FFFD
      at += length;
    } else {
      safe += text[at];
      ++at;
    }
  }
  return safe;
}

}  // namespace ibkit
