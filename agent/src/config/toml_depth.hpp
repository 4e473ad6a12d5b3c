#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ibkit {

// The deepest a value of ibkit's configuration sits is 3 levels: [expect], then
// ports = ["mlx5_0/1"] (a table, its key, a list). One more is allowed; anything deeper is a
// mistake, or an attack on toml++, whose own nesting cap covers arrays and inline tables but
// not dotted keys or table headers (200,000 dotted levels overflow its stack).
inline constexpr int kMaxConfigDepth = 4;

// The 1-based line of the first table header, key, list or inline table in the TOML `text`
// that sits more than `max_depth` levels deep; nullopt when none does. A cheap scan that
// tells strings, comments, keys and brackets apart and stops at the first offender; it does
// not check the syntax (toml++ does that afterwards).
std::optional<std::size_t> first_line_deeper_than(std::string_view text, int max_depth);

}  // namespace ibkit
