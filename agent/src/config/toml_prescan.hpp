#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ibkit {

// The deepest a value of ibkit's configuration sits is 3 levels: [expect], then
// ports = ["mlx5_0/1"] (a table, its key, a list). One more is allowed; anything deeper is a
// mistake, or an attack on toml++, whose own nesting cap covers arrays and inline tables but
// not dotted keys or table headers (200,000 dotted levels overflow its stack).
inline constexpr int kMaxConfigDepth = 4;

// What toml++ (3.3) must never be given: it overflows its stack on the first, and reaches a
// point it marks unreachable (undefined behaviour) when it asks whether a non-ASCII character
// in U+00A1..U+0499, U+2C5E..U+3057 (but U+3000) or U+FB26..U+FEFE is whitespace. It asks that
// of any non-ASCII character outside strings and comments, and of the one after a backslash in
// a multi-line basic string. TOML allows non-ASCII characters only inside strings and comments,
// so refusing the rest loses nothing.
struct TomlHazard {
  enum class Kind { too_deep, non_ascii };
  Kind kind;
  std::size_t line;  // 1-based
};

// The first hazard in the TOML `text`, or nullopt. A cheap scan that tells strings, comments,
// keys and brackets apart and stops at the first offender; it does not check the syntax
// (toml++ does that afterwards).
std::optional<TomlHazard> first_toml_hazard(std::string_view text, int max_depth);

// `text` with every character toml++ cannot be asked about (the ranges above) replaced by U+FFFD,
// which it can: where the scan above misjudges what toml++ reads outside a string, toml++ then
// says what is wrong there instead of reaching its unreachable branch. Only such characters
// change, one for one, so lines and columns stay; a string holding one reads with U+FFFD in its
// place (no value of ibkit's configuration is anything but ASCII). A sequence is decoded by its
// shape alone, overlong ones too, so that nothing toml++ could decode to those ranges is left.
std::string toml_safe_text(std::string_view text);

}  // namespace ibkit
