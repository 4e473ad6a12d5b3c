#include "peer/test_request.hpp"

#include <array>
#include <cmath>
#include <string_view>

#include "peer/channel.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 10> kFields{
    "type", "test", "op", "sizes", "qps", "iters", "duration_s", "bidir", "use_cm", "tx_depth"};
constexpr std::size_t kMaxTestNameBytes = 32;

Error field_error(std::string_view field, const std::string& problem) {
  return Error{"request field \"" + std::string(field) + "\": " + problem};
}

// How a wrong value looks in a message: short, and never the whole of a large value.
std::string shown(const json& value) {
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  return value.dump();
}

template <class T>
Expected<T> bounded_integer(const json& value, std::string_view field, T min, T max) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  if (!value.is_number_integer()) {
    return field_error(field, "expected an integer in " + range + ", got " + shown(value));
  }
  bool in_range = value.is_number_unsigned()
                      ? value.get<std::uint64_t>() >= static_cast<std::uint64_t>(min) &&
                            value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max)
                      : value.get<std::int64_t>() >= static_cast<std::int64_t>(min) &&
                            value.get<std::int64_t>() <= static_cast<std::int64_t>(max);
  if (!in_range) return field_error(field, value.dump() + " is outside " + range);
  return value.get<T>();
}

Expected<bool> boolean(const json& value, std::string_view field) {
  if (!value.is_boolean()) return field_error(field, "expected true or false, got " + shown(value));
  return value.get<bool>();
}

Expected<double> duration_seconds(const json& value) {
  const std::string range = "0.." + format_number(RequestBounds::kMaxDurationS) + " seconds";
  if (!value.is_number()) {
    return field_error("duration_s", "expected a number in " + range + ", got " + shown(value));
  }
  double seconds = value.get<double>();
  if (!std::isfinite(seconds) || seconds < 0 || seconds > RequestBounds::kMaxDurationS) {
    return field_error("duration_s", value.dump() + " is outside " + range);
  }
  return seconds;
}

Expected<std::string> test_name(const json& value) {
  if (!value.is_string()) return field_error("test", "expected a name, got " + shown(value));
  const auto& name = value.get_ref<const std::string&>();
  bool plain = !name.empty() && name.size() <= kMaxTestNameBytes;
  for (char c : name) plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
  if (!plain) {
    return field_error("test", "expected 1 to " + std::to_string(kMaxTestNameBytes) +
                                   " lower-case letters or digits (\"lat\", \"bw\", \"tcp\")");
  }
  return name;
}

Expected<std::string> verbs_op(const json& value) {
  if (value.is_string()) {
    const auto& op = value.get_ref<const std::string&>();
    if (op == "send" || op == "write" || op == "read") return op;
  }
  return field_error("op", "expected \"send\", \"write\" or \"read\"");
}

Expected<std::vector<std::uint64_t>> message_sizes(const json& value) {
  const std::string bounds = std::to_string(RequestBounds::kMaxSizes) + " sizes of " +
                             std::to_string(RequestBounds::kMinSize) + ".." +
                             std::to_string(RequestBounds::kMaxSize) + " bytes";
  if (!value.is_array() || value.empty() || value.size() > RequestBounds::kMaxSizes) {
    return field_error("sizes", "expected an array of 1 to " + bounds);
  }
  std::vector<std::uint64_t> sizes;
  for (const auto& entry : value) {
    auto size = bounded_integer(entry, "sizes", RequestBounds::kMinSize, RequestBounds::kMaxSize);
    if (!size) return size.error();
    sizes.push_back(*size);
  }
  return sizes;
}

// Reads one known field into the request; fails naming the field and its bounds.
Expected<Done> read_field(const std::string& field, const json& value, TestRequest& request) {
  auto take = [](auto parsed, auto& into) -> Expected<Done> {
    if (!parsed) return parsed.error();
    into = std::move(*parsed);
    return Done{};
  };
  if (field == "type") {
    if (value == "request") return Done{};
    return field_error("type", "expected \"request\"");
  }
  if (field == "test") return take(test_name(value), request.test);
  if (field == "op") return take(verbs_op(value), request.op);
  if (field == "sizes") return take(message_sizes(value), request.sizes);
  if (field == "qps")
    return take(bounded_integer(value, field, 1, RequestBounds::kMaxQps), request.qps);
  if (field == "iters") {
    return take(bounded_integer<std::uint64_t>(value, field, 0, RequestBounds::kMaxIters),
                request.iters);
  }
  if (field == "duration_s") return take(duration_seconds(value), request.duration_s);
  if (field == "bidir") return take(boolean(value, field), request.bidir);
  if (field == "use_cm") return take(boolean(value, field), request.use_cm);
  return take(bounded_integer(value, field, 1, RequestBounds::kMaxTxDepth), request.tx_depth);
}

bool known_field(const std::string& field) {
  for (auto known : kFields) {
    if (known == field) return true;
  }
  return false;
}

}  // namespace

nlohmann::json to_json(const TestRequest& request) {
  return {{"type", "request"},
          {"test", request.test},
          {"op", request.op},
          {"sizes", request.sizes},
          {"qps", request.qps},
          {"iters", request.duration_s > 0 ? 0 : request.iters},
          {"duration_s", request.duration_s},
          {"bidir", request.bidir},
          {"use_cm", request.use_cm},
          {"tx_depth", request.tx_depth}};
}

Expected<TestRequest> request_from_json(const nlohmann::json& message) {
  if (!message.is_object()) return Error{"a request must be a JSON object"};
  if (!message.contains("test")) return field_error("test", "missing");
  TestRequest request;
  for (const auto& [field, value] : message.items()) {
    if (!known_field(field)) {
      std::string known;
      for (auto name : kFields) known += (known.empty() ? "" : ", ") + std::string(name);
      return Error{"request field \"" + field.substr(0, 40) + "\" is not known (known: " + known +
                   ")"};
    }
    auto read = read_field(field, value, request);
    if (!read) return read.error();
  }
  // Exactly one of the two says how long each size runs.
  if ((request.iters == 0) == (request.duration_s == 0)) {
    return Error{
        "request fields \"iters\" and \"duration_s\": give exactly one (the other 0); got " +
        std::to_string(request.iters) + " and " + format_number(request.duration_s)};
  }
  return request;
}

}  // namespace ibkit
