#include "control/message_fields.hpp"

#include <cmath>

#include "control/request_bounds.hpp"
#include "util/text.hpp"

namespace ibkit {

Error field_error(std::string_view kind, std::string_view field, const std::string& problem) {
  return Error{std::string(kind) + " field \"" + std::string(field) + "\": " + problem};
}

std::string shown(const nlohmann::json& value) {
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  return value.dump();
}

Expected<bool> boolean_field(const nlohmann::json& value, std::string_view kind,
                             std::string_view field) {
  if (!value.is_boolean()) {
    return field_error(kind, field, "expected true or false, got " + shown(value));
  }
  return value.get<bool>();
}

Expected<double> seconds_field(const nlohmann::json& value, std::string_view kind,
                               std::string_view field, double min, double max) {
  const std::string range = format_number(min) + ".." + format_number(max) + " seconds";
  if (!value.is_number()) {
    return field_error(kind, field, "expected a number in " + range + ", got " + shown(value));
  }
  double seconds = value.get<double>();
  if (!std::isfinite(seconds) || seconds < min || seconds > max) {
    return field_error(kind, field, value.dump() + " is outside " + range);
  }
  return seconds;
}

Expected<std::vector<std::uint64_t>> sizes_field(const nlohmann::json& value, std::string_view kind,
                                                 std::string_view field) {
  const std::string bounds = std::to_string(RequestBounds::kMaxSizes) + " sizes of " +
                             std::to_string(RequestBounds::kMinSize) + ".." +
                             std::to_string(RequestBounds::kMaxSize) + " bytes";
  if (!value.is_array() || value.empty() || value.size() > RequestBounds::kMaxSizes) {
    return field_error(kind, field, "expected an array of 1 to " + bounds);
  }
  std::vector<std::uint64_t> sizes;
  for (const auto& entry : value) {
    auto size =
        bounded_integer(entry, kind, field, RequestBounds::kMinSize, RequestBounds::kMaxSize);
    if (!size) return size.error();
    sizes.push_back(*size);
  }
  return sizes;
}

}  // namespace ibkit
