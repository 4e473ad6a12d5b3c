#include "report/xml_escape.hpp"

#include "util/text.hpp"

namespace ibkit {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  // Controls (but line feeds) shown as terminal_safe shows them: most are not XML at all, bytes
  // that are not UTF-8 would make the file malformed, and a CR or an ESC in junit.xml rewrites
  // the terminal it is printed on.
  for (char c : terminal_safe_lines(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace ibkit
