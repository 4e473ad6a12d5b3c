#include "util/files/bounded_json.hpp"

#include <string>

#include <nlohmann/json.hpp>

namespace ibkit {

Expected<nlohmann::json> parse_json_within_depth(std::string_view text, int max_depth) {
  bool too_deep = false;
  auto limit_depth = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > max_depth) too_deep = true;
    return !too_deep;
  };
  auto document =
      nlohmann::json::parse(text.begin(), text.end(), limit_depth, /*allow_exceptions=*/false);
  if (too_deep) return Error{"nested deeper than " + std::to_string(max_depth) + " levels"};
  if (document.is_discarded()) return Error{"not JSON"};
  return document;
}

}  // namespace ibkit
