#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace ibkit {

// Writes one JSON object member by member into `out`, compact, so a large report is text
// growing in one string instead of a whole-document DOM besides it. Bytes that are not UTF-8
// (a garbage sysfs file) are replaced, not thrown on.
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(std::string* out);
  void member(std::string_view key, const nlohmann::ordered_json& value);
  // Starts the member `key` and returns the text to append its value to.
  std::string& begin_member(std::string_view key);
  // Ends the object and the line.
  void close();

 private:
  std::string* out_;
  bool first_ = true;
};

// One value as the writer writes it: compact, bytes that are not UTF-8 replaced, no raw control
// character (json_controls_escaped).
std::string compact_json(const nlohmann::ordered_json& value);

}  // namespace ibkit
