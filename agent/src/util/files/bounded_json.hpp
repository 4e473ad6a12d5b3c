#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "util/expected.hpp"

namespace ibkit {

// Parses `text` as JSON nested at most `max_depth` levels; deeper input is refused while it is
// read, before it can exhaust the stack. Fails with "not JSON" or "nested deeper than N levels".
Expected<nlohmann::json> parse_json_within_depth(std::string_view text, int max_depth);

}  // namespace ibkit
