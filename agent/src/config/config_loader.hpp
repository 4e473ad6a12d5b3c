#pragma once

#include <filesystem>
#include <string_view>

#include "config/config.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Loads a TOML configuration file. On failure the Error reads "FILE:LINE:COL: what is wrong;
// what to write instead" (unknown keys, wrong types, bad values and TOML syntax alike), or
// "--config FILE ..." when the file cannot be read, is not a regular file or exceeds 1 MiB.
Expected<Config> load_config(const std::filesystem::path& file);

// Same, from text already in memory; `source_name` stands for the file in messages. Keys
// nested deeper than kMaxConfigDepth are refused ("FILE:LINE: ...") before toml++ sees them.
Expected<Config> parse_config(std::string_view text, std::string_view source_name);

}  // namespace ibkit
