#include "schema/json_text.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace ibkit {

std::string report_json_text(const nlohmann::ordered_json& document) {
  return json_controls_escaped(
             document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)) +
         "\n";
}

std::string json_controls_escaped(std::string json) {
  const auto is_c1 = [&](std::size_t i) {
    return static_cast<unsigned char>(json[i]) == 0xc2 && i + 1 < json.size() &&
           static_cast<unsigned char>(json[i + 1]) <= 0x9f;
  };
  bool any = false;
  for (std::size_t i = 0; i < json.size() && !any; ++i) any = json[i] == 0x7f || is_c1(i);
  if (!any) return json;  // the common case: a report with nothing to escape is not copied
  std::string out;
  out.reserve(json.size() + 16);
  // Outside its strings a JSON text is ASCII, and 0xC2 only ever leads a sequence: each match
  // is a character of a string.
  for (std::size_t i = 0; i < json.size(); ++i) {
    unsigned code = 0;
    if (json[i] == 0x7f) {
      code = 0x7f;
    } else if (is_c1(i)) {
      code = static_cast<unsigned char>(json[++i]);
    } else {
      out += json[i];
      continue;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\u%04x", code);
    out += escaped;
  }
  return out;
}

}  // namespace ibkit
