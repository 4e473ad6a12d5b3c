#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// Returns text without leading and trailing whitespace.
std::string_view trim(std::string_view text);

// Splits on any run of whitespace; no empty fields.
std::vector<std::string> split_whitespace(std::string_view text);

// Splits on a single separator character; keeps empty fields.
std::vector<std::string> split(std::string_view text, char separator);

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix);
bool equals_ignoring_case(std::string_view a, std::string_view b);

// Parses a whole decimal (or 0x-prefixed hex) unsigned number; nullopt on anything else.
std::optional<std::uint64_t> parse_unsigned(std::string_view text);

// Parses a whole decimal floating point number; nullopt on anything else.
std::optional<double> parse_double(std::string_view text);

// Formats a double with at most `decimals` digits after the point, trailing zeros dropped.
std::string format_number(double value, int decimals = 2);

std::string join(const std::vector<std::string>& parts, std::string_view separator);

// A few of many named: the first `most` of `items` joined by `separator`, then how many more
// there are: "a, b and 3 more"; with "; " (items with commas of their own) "a; b; and 3 more".
std::string join_capped(const std::vector<std::string>& items, std::size_t most,
                        std::string_view separator);

// "1 node", "3 nodes": a count and the noun in its number.
std::string count_of(std::size_t count, std::string_view one, std::string_view many);

// `text` with every byte that does not belong to a well-formed UTF-8 sequence (a stray
// continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF) replaced
// by U+FFFD, as nlohmann's error_handler_t::replace does: what formats that must be UTF-8
// (Prometheus's text exposition) get from names Linux allows to be any bytes.
std::string valid_utf8(std::string_view text);

// `text` as a terminal may show it without acting on it: every C0 control and DEL as an escape
// (\t, \n, \r, else \xNN: ESC is \x1b), every C1 control (U+0080..U+009F, which a terminal may
// take as ESC [ and the like) as \u00NN, and every byte that does not belong to well-formed UTF-8
// as \xNN; printable ASCII and well-formed UTF-8 unchanged. What a text report or message shows
// of text from outside (node descriptions, host names, file names, reasons) goes through it, so
// no such text can clear the screen, move the cursor or overwrite a "fail" with "pass".
std::string terminal_safe(std::string_view text);

// terminal_safe, but line feeds kept: for text that is several lines by design (an XML body).
std::string terminal_safe_lines(std::string_view text);

// The longest start of `text` of at most `max_bytes` that ends between two characters, not
// inside a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

// What a message may quote of another program's output: its first line, at most `max_bytes`
// of it ("..." where it was cut), as terminal_safe shows it, so a hostile or broken child cannot
// flood or rewrite a terminal or a log line.
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes = 200);

// The start of `text` as terminal_safe shows it, line feeds escaped rather than ending it: for
// input whose every byte matters to the reader (a node list with a stray newline).
std::string escaped_excerpt(std::string_view text, std::size_t max_bytes = 200);

}  // namespace ibkit
