#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <system_error>

namespace ibkit {

std::string_view trim(std::string_view text) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string> split_whitespace(std::string_view text) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) fields.emplace_back(text.substr(start, i - start));
  }
  return fields;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      fields.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return fields;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         equals_ignoring_case(text.substr(0, prefix.size()), prefix);
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  text = trim(text);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string format_number(double value, int decimals) {
  // to_chars rounds as printf does, several times faster: a 1,024-node report writes millions
  // of figures. What does not fit its buffer (1e300 with many decimals) goes through printf,
  // sized by a first call: a cut-off number is a wrong one.
  std::array<char, 128> buffer{};
  const auto [end, problem] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                            std::chars_format::fixed, std::max(decimals, 0));
  std::string text;
  if (problem == std::errc()) {
    text.assign(buffer.data(), end);
  } else {
    const int length = std::snprintf(nullptr, 0, "%.*f", decimals, value);
    text.assign(static_cast<std::size_t>(std::max(length, 0)) + 1, '\0');
    std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
    text.pop_back();
  }
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

std::string join_capped(const std::vector<std::string>& items, std::size_t most,
                        std::string_view separator) {
  if (items.size() <= most) return join(items, separator);
  if (most == 0) return std::to_string(items.size()) + " more";
  const std::vector<std::string> shown(items.begin(), items.begin() + static_cast<long>(most));
  const std::string_view before_rest = separator == "; " ? "; and " : " and ";
  return join(shown, separator) + std::string(before_rest) + std::to_string(items.size() - most) +
         " more";
}

namespace {

// The length of the well-formed UTF-8 sequence at the start of `text`, 0 when there is none
// (RFC 3629's table: the second byte's range depends on the first).
std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char first = byte(0);
  if (first < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (first >= 0xc2 && first <= 0xdf) {
    length = 2;
  } else if (first >= 0xe0 && first <= 0xef) {
    length = 3;
    if (first == 0xe0) low = 0xa0;   // overlong
    if (first == 0xed) high = 0x9f;  // surrogates
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4;
    if (first == 0xf0) low = 0x90;   // overlong
    if (first == 0xf4) high = 0x8f;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  }
  return length;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t length = utf8_sequence_length(text);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      text.remove_prefix(1);
    } else {
      out.append(text.substr(0, length));
      text.remove_prefix(length);
    }
  }
  return out;
}

namespace {

void append_escape(std::string& out, const char* format, unsigned value) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, format, value);
  out += escaped;
}

std::string shown_on_terminal(std::string_view text, bool keep_line_feeds) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t length = utf8_sequence_length(text);
    const auto byte = static_cast<unsigned char>(text.front());
    if (length == 0) {
      append_escape(out, "\\x%02x", byte);
    } else if (length == 2 && byte == 0xc2 && static_cast<unsigned char>(text[1]) <= 0x9f) {
      append_escape(out, "\\u%04x", static_cast<unsigned char>(text[1]));
    } else if (length > 1 || (byte >= 0x20 && byte != 0x7f) || (byte == '\n' && keep_line_feeds)) {
      out.append(text.substr(0, length));
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else {
      append_escape(out, "\\x%02x", byte);
    }
    text.remove_prefix(std::max<std::size_t>(length, 1));
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view text) { return shown_on_terminal(text, false); }

std::string terminal_safe_lines(std::string_view text) { return shown_on_terminal(text, true); }

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t kept = max_bytes;
  while (kept > 0 && (static_cast<unsigned char>(text[kept]) & 0xc0) == 0x80) --kept;
  return text.substr(0, kept);
}

std::string escaped_excerpt(std::string_view text, std::size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  const std::string out = terminal_safe(utf8_prefix(text, max_bytes));
  return cut ? out + "..." : out;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
  return escaped_excerpt(text.substr(0, text.find('\n')), max_bytes);
}

std::string count_of(std::size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

}  // namespace ibkit
