#include "sweep/drive_request.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "control/measurement_request.hpp"
#include "control/message_fields.hpp"
#include "control/socket.hpp"
#include "schedule/hosts.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

constexpr std::string_view kKind = "drive";
constexpr std::array<std::string_view, 14> kFields{
    "type",  "peer",  "port", "tests",       "op",         "sizes",      "qps",
    "iters", "bidir", "rail", "ack_timeout", "duration_s", "deadline_s", "connect_timeout_s"};
constexpr std::array<std::string_view, 3> kTests{"lat", "bw", "tcp"};

Expected<std::string> peer_address(const json& value) {
  if (!value.is_string() || !is_host_text(value.get_ref<const std::string&>())) {
    return field_error(kKind, "peer",
                       "expected a host name or numeric address (letters, digits, \".-_:%\", at "
                       "most 253 bytes)");
  }
  return value.get<std::string>();
}

Expected<std::vector<std::string>> test_names(const json& value) {
  const std::string expected = "expected an array of 1 to 3 of \"lat\", \"bw\", \"tcp\", each once";
  if (!value.is_array() || value.empty() || value.size() > kTests.size()) {
    return field_error(kKind, "tests", expected);
  }
  std::vector<std::string> tests;
  for (const auto& entry : value) {
    const bool known = entry.is_string() && std::find(kTests.begin(), kTests.end(),
                                                      entry.get<std::string>()) != kTests.end();
    if (!known || std::find(tests.begin(), tests.end(), entry.get<std::string>()) != tests.end()) {
      return field_error(kKind, "tests", expected);
    }
    tests.push_back(entry.get<std::string>());
  }
  return tests;
}

Expected<std::string> verbs_op(const json& value) {
  if (value.is_string()) {
    const auto& op = value.get_ref<const std::string&>();
    if (op == "send" || op == "write" || op == "read") return op;
  }
  return field_error(kKind, "op", "expected \"send\", \"write\" or \"read\"");
}

// The fields that only make sense together: an op every verbs test runs, at most one of a
// count and a duration, and time enough for the durations.
Expected<Done> check_together(const DriveRequest& drive) {
  if (!drive.op.empty()) {
    for (const auto& test : drive.tests) {
      if (test == "tcp") continue;
      if (auto valid = check_verbs_operation(test, drive.op); !valid) {
        return field_error(
            kKind, "op",
            "\"" + drive.op + "\" does not apply to test \"" + test + "\" (" +
                (test == "lat" ? "lat runs send or write" : "bw runs write, read or send") + ")");
      }
    }
  }
  if (drive.iters != 0 && drive.duration_s != 0) {
    return Error{"drive fields \"iters\" and \"duration_s\": give at most one (the other 0); got " +
                 std::to_string(drive.iters) + " and " + seconds_text(drive.duration_s)};
  }
  const double planned = planned_seconds(drive);
  if (planned > drive.deadline_s) {
    return field_error(kKind, "deadline_s",
                       seconds_text(drive.deadline_s) + " is shorter than the tests' " +
                           seconds_text(planned) + " (duration x sizes of bw and tcp)");
  }
  return Done{};
}

Expected<Done> read_field(const std::string& field, const json& value, DriveRequest& drive) {
  if (field == "type") {
    if (value == "drive") return Done{};
    return field_error(kKind, "type", "expected \"drive\"");
  }
  if (field == "peer") return take(peer_address(value), drive.peer);
  if (field == "port") {
    return take(bounded_integer<std::uint16_t>(value, kKind, field, 1, 65535), drive.port);
  }
  if (field == "tests") return take(test_names(value), drive.tests);
  if (field == "op") return take(verbs_op(value), drive.op);
  if (field == "sizes") return take(sizes_field(value, kKind, field), drive.sizes);
  if (field == "qps") {
    return take(bounded_integer(value, kKind, field, 1, RequestBounds::kMaxQps), drive.qps);
  }
  if (field == "iters") {
    return take(bounded_integer<std::uint64_t>(value, kKind, field, 0, RequestBounds::kMaxIters),
                drive.iters);
  }
  if (field == "duration_s") {
    return take(seconds_field(value, kKind, field, 0, RequestBounds::kMaxDurationS),
                drive.duration_s);
  }
  if (field == "bidir") return take(boolean_field(value, kKind, field), drive.bidir);
  if (field == "rail") {
    return take(bounded_integer(value, kKind, field, 0, RequestBounds::kMaxRail), drive.rail);
  }
  if (field == "ack_timeout") {
    return take(bounded_integer(value, kKind, field, RequestBounds::kMinAckTimeout,
                                RequestBounds::kMaxAckTimeout),
                drive.ack_timeout);
  }
  if (field == "connect_timeout_s") {
    return take(
        seconds_field(value, kKind, field, DriveBounds::kMinConnectS, DriveBounds::kMaxConnectS),
        drive.connect_timeout_s);
  }
  return take(
      seconds_field(value, kKind, field, DriveBounds::kMinDeadlineS, DriveBounds::kMaxDeadlineS),
      drive.deadline_s);
}

}  // namespace

nlohmann::json to_json(const DriveRequest& drive) {
  json message{{"type", "drive"},
               {"peer", drive.peer},
               {"port", drive.port},
               {"tests", drive.tests},
               {"qps", drive.qps},
               {"iters", drive.iters},
               {"duration_s", drive.duration_s},
               {"bidir", drive.bidir},
               {"deadline_s", drive.deadline_s},
               {"connect_timeout_s", drive.connect_timeout_s}};
  if (!drive.op.empty()) message["op"] = drive.op;
  if (!drive.sizes.empty()) message["sizes"] = drive.sizes;
  if (drive.rail) message["rail"] = *drive.rail;
  if (drive.ack_timeout) message["ack_timeout"] = *drive.ack_timeout;
  return message;
}

Expected<DriveRequest> drive_from_json(const nlohmann::json& message) {
  if (!message.is_object()) return Error{"a drive must be a JSON object"};
  for (const char* required : {"peer", "port", "tests"}) {
    if (!message.contains(required)) return field_error(kKind, required, "missing");
  }
  if (auto known = only_known_fields(message, kKind, kFields); !known) return known.error();
  DriveRequest drive;
  for (const auto& [field, value] : message.items()) {
    auto read = read_field(field, value, drive);
    if (!read) return read.error();
  }
  if (auto together = check_together(drive); !together) return together.error();
  return drive;
}

PairPlan plan_of(const DriveRequest& drive, const Deadline& until) {
  PairPlan plan;
  static_cast<PairWorkload&>(plan) = drive;
  plan.deadline_s = drive.deadline_s;
  plan.connect_timeout_s = std::min(drive.connect_timeout_s, drive.deadline_s);
  plan.until = until;
  return plan;
}

}  // namespace ibkit
