#pragma once

#include <filesystem>
#include <string_view>

#include "config/config.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Loads a TOML configuration file. On failure the Error reads "FILE:LINE:COL: what is wrong;
// what to write instead" for every unknown key or table, wrong type and bad value of the file,
// in its order, the first five in full then "and N more", on one line; for a TOML syntax error,
// which stops the parse, that one alone; or "--config FILE ..." when the file cannot be read, is
// not a regular file or exceeds 1 MiB.
Expected<Config> load_config(const std::filesystem::path& file);

// Same, from text already in memory; `source_name` stands for the file in messages. Keys
// nested deeper than kMaxConfigDepth are refused ("FILE:LINE: ...") before toml++ sees them.
Expected<Config> parse_config(std::string_view text, std::string_view source_name);

}  // namespace ibkit
