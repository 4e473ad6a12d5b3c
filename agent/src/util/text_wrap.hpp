#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ibkit {

// The columns `text` takes on a terminal: one per UTF-8 character, so that colour codes, which
// callers add after measuring, and multi-byte characters are not over-counted. Meant for text
// that went through terminal_safe (no controls); a wide East Asian character counts as one.
std::size_t display_width(std::string_view text);

// `text` without the spaces it ends with: what a wrapped line shows.
std::string_view without_trailing_spaces(std::string_view text);

// `text` cut into lines of at most `width` columns (display_width, the spaces a line ends with
// not counted), which concatenated give `text` back: a line ends after the run of spaces that
// follows the last word that fits, or, when no space falls within the width, after its
// `width`th character (never inside a UTF-8 sequence). Empty text is one empty line; a `width`
// of 0 counts as 1.
std::vector<std::string_view> wrap_text(std::string_view text, std::size_t width);

}  // namespace ibkit
