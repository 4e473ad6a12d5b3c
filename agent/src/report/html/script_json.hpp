#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// `text` as a JSON string literal that is safe inside an HTML <script> element: besides JSON's
// own escapes, '<', '>' and '&' become \u003c, \u003e and \u0026, so no node name can close
// the element or start markup.
std::string script_json_string(std::string_view text);

// A JSON array of script_json_string()s.
std::string script_json_array(const std::vector<std::string>& texts);

}  // namespace ibkit
