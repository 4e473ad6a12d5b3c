#include "report/html/script_json.hpp"

#include <cstdio>

namespace ibkit {

std::string script_json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || c == '<' || c == '>' || c == '&') {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string script_json_array(const std::vector<std::string>& texts) {
  std::string out = "[";
  for (const auto& text : texts) {
    if (out.size() > 1) out += ',';
    out += script_json_string(text);
  }
  return out + "]";
}

}  // namespace ibkit
