#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/expected.hpp"

namespace ibkit {

// Bounds checks for fields of a message from a peer (never trusted). `kind` names the message
// in errors: "request field \"qps\": 1000 is outside 1..64".

Error field_error(std::string_view kind, std::string_view field, const std::string& problem);

// Stores a field that was read into `into`, or passes its Error on.
template <class T, class Into>
Expected<Done> take(Expected<T> parsed, Into& into) {
  if (!parsed) return parsed.error();
  into = std::move(*parsed);
  return Done{};
}

// How a wrong value looks in a message: short, and never the whole of a large value.
std::string shown(const nlohmann::json& value);

template <class T>
Expected<T> bounded_integer(const nlohmann::json& value, std::string_view kind,
                            std::string_view field, T min, T max) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  if (!value.is_number_integer()) {
    return field_error(kind, field, "expected an integer in " + range + ", got " + shown(value));
  }
  bool in_range = value.is_number_unsigned()
                      ? value.get<std::uint64_t>() >= static_cast<std::uint64_t>(min) &&
                            value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max)
                      : value.get<std::int64_t>() >= static_cast<std::int64_t>(min) &&
                            value.get<std::int64_t>() <= static_cast<std::int64_t>(max);
  if (!in_range) return field_error(kind, field, value.dump() + " is outside " + range);
  return value.get<T>();
}

Expected<bool> boolean_field(const nlohmann::json& value, std::string_view kind,
                             std::string_view field);

// A finite number of seconds in min..max.
Expected<double> seconds_field(const nlohmann::json& value, std::string_view kind,
                               std::string_view field, double min, double max);

// An array of 1 to RequestBounds::kMaxSizes message sizes, each in kMinSize..kMaxSize.
Expected<std::vector<std::uint64_t>> sizes_field(const nlohmann::json& value, std::string_view kind,
                                                 std::string_view field);

// Fails naming the first field of `message` that is not in `known`, listing the known ones.
template <class Names>
Expected<Done> only_known_fields(const nlohmann::json& message, std::string_view kind,
                                 const Names& known) {
  for (const auto& [field, value] : message.items()) {
    bool found = false;
    for (auto name : known) found = found || name == field;
    if (found) continue;
    std::string names;
    for (auto name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    return Error{std::string(kind) + " field \"" + field.substr(0, 40) +
                 "\" is not known (known: " + names + ")"};
  }
  return Done{};
}

}  // namespace ibkit
