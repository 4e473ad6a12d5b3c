#include "control/measurement_request.hpp"

#include <array>
#include <cmath>
#include <string_view>

#include "control/channel.hpp"
#include "control/message_fields.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 13> kFields{
    "type",  "test",   "op",       "sizes", "qps",    "iters",      "duration_s",
    "bidir", "use_cm", "tx_depth", "rail",  "events", "ack_timeout"};
constexpr std::size_t kMaxTestNameBytes = 32;

constexpr std::string_view kKind = "request";

Error field_error(std::string_view field, const std::string& problem) {
  return ibkit::field_error(kKind, field, problem);
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

// Reads one known field into the request; fails naming the field and its bounds.
Expected<Done> read_field(const std::string& field, const json& value, TestRequest& request) {
  if (field == "type") {
    if (value == "request") return Done{};
    return field_error("type", "expected \"request\"");
  }
  if (field == "test") return take(test_name(value), request.test);
  if (field == "op") return take(verbs_op(value), request.op);
  if (field == "sizes") return take(sizes_field(value, kKind, field), request.sizes);
  if (field == "qps")
    return take(bounded_integer(value, kKind, field, 1, RequestBounds::kMaxQps), request.qps);
  if (field == "iters") {
    return take(bounded_integer<std::uint64_t>(value, kKind, field, 0, RequestBounds::kMaxIters),
                request.iters);
  }
  if (field == "duration_s")
    return take(seconds_field(value, kKind, field, 0, RequestBounds::kMaxDurationS),
                request.duration_s);
  if (field == "bidir") return take(boolean_field(value, kKind, field), request.bidir);
  if (field == "use_cm") return take(boolean_field(value, kKind, field), request.use_cm);
  if (field == "events") return take(boolean_field(value, kKind, field), request.events);
  if (field == "rail") {
    return take(bounded_integer(value, kKind, field, 0, RequestBounds::kMaxRail), request.rail);
  }
  if (field == "ack_timeout") {
    return take(bounded_integer(value, kKind, field, RequestBounds::kMinAckTimeout,
                                RequestBounds::kMaxAckTimeout),
                request.ack_timeout);
  }
  return take(bounded_integer(value, kKind, field, 1, RequestBounds::kMaxTxDepth),
              request.tx_depth);
}

}  // namespace

nlohmann::json to_json(const TestRequest& request) {
  nlohmann::json message{{"type", "request"},
                         {"test", request.test},
                         {"op", request.op},
                         {"sizes", request.sizes},
                         {"qps", request.qps},
                         {"iters", request.duration_s > 0 ? 0 : request.iters},
                         {"duration_s", request.duration_s},
                         {"bidir", request.bidir},
                         {"use_cm", request.use_cm},
                         {"tx_depth", request.tx_depth}};
  if (request.rail) message["rail"] = *request.rail;
  if (request.events) message["events"] = true;
  if (request.ack_timeout) message["ack_timeout"] = *request.ack_timeout;
  return message;
}

Expected<TestRequest> request_from_json(const nlohmann::json& message) {
  if (!message.is_object()) return Error{"a request must be a JSON object"};
  if (!message.contains("test")) return field_error("test", "missing");
  if (auto known = only_known_fields(message, kKind, kFields); !known) return known.error();
  TestRequest request;
  for (const auto& [field, value] : message.items()) {
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
