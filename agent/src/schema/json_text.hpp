#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ibkit {

// A JSON report as written to a file: indented, ending in a newline, with bytes that are not
// UTF-8 (a garbage sysfs file) replaced instead of thrown on, and no raw control character
// (json_controls_escaped).
std::string report_json_text(const nlohmann::ordered_json& document);

// `json`, a document as nlohmann writes it, with DEL and the C1 controls (U+0080..U+009F) in its
// strings written as \u escapes, as it writes those below U+0020: the same document to a JSON
// reader, and one that cannot drive the terminal it is printed on (U+009B is ESC [ to some).
std::string json_controls_escaped(std::string json);

}  // namespace ibkit
