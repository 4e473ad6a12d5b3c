#pragma once

#include <string>
#include <string_view>

namespace ibkit {

// Escapes text for an XML attribute or element; control characters XML cannot carry become '?'.
std::string xml_escape(std::string_view text);

}  // namespace ibkit
