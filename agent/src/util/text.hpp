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

}  // namespace ibkit
