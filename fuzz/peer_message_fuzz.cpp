// The control channel's messages from a peer (never trusted) on any bytes: a frame's body is
// parsed by the function FramedChannel::receive uses (a JSON object, depth-limited), then read as a
// test request, a drive request, a verbs endpoint, and a drive's result. What a reader accepts must
// be what its writer sends again: to_json, then the reader, gives the same message.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "control/framed_channel.hpp"
#include "control/measurement_request.hpp"
#include "fuzz_input.hpp"
#include "schema/pair_report_json.hpp"
#include "sweep/drive_request.hpp"
#include "util/time/deadline.hpp"
#include "verbs/endpoint.hpp"

namespace {

using ibkit::fuzz::broken_promise;

// Reads `message` with `read`, and when it is accepted, writes it with `write` and reads that:
// the second reading must succeed and write the same message.
template <class Read, class Write>
void round_trip(const char* kind, const nlohmann::json& message, Read read, Write write) {
  auto first = read(message);
  if (!first) return;
  const nlohmann::json sent = write(*first);
  auto second = read(sent);
  if (!second) {
    broken_promise(kind, "accepted " + message.dump() + " but refuses its own " + sent.dump() +
                             ": " + second.error().message);
  }
  if (write(*second) != sent) broken_promise(kind, "reads back differently: " + sent.dump());
  if (!ibkit::encode_frame(sent).ok()) {
    broken_promise(kind, "an accepted message does not fit a frame: " + sent.dump());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto body = ibkit::fuzz::as_text(data, size);
  if (body.size() > ibkit::kMaxFrameBytes) return 0;  // receive refuses it from the header
  auto message = ibkit::parse_frame_body(body);
  if (!message) return 0;

  round_trip(
      "test request", *message, [](const auto& m) { return ibkit::request_from_json(m); },
      [](const ibkit::TestRequest& r) { return ibkit::to_json(r); });
  round_trip(
      "drive request", *message, [](const auto& m) { return ibkit::drive_from_json(m); },
      [](const ibkit::DriveRequest& d) { return ibkit::to_json(d); });
  round_trip(
      "verbs endpoint", *message,
      [](const auto& m) { return ibkit::endpoint_from_json(m, ibkit::RequestBounds::kMaxQps); },
      [](const ibkit::Endpoint& e) { return ibkit::to_json(e); });

  if (auto drive = ibkit::drive_from_json(*message)) {
    const double planned = ibkit::planned_seconds(*drive);
    if (!(planned >= 0))
      broken_promise("drive request", "planned_seconds " + std::to_string(planned));
    auto plan = ibkit::plan_of(*drive, ibkit::Deadline::after(std::chrono::seconds(1)));
    if (plan.tests != drive->tests) broken_promise("drive request", "plan_of changed the tests");
  }
  // A drive's result: {"type": "result", "peer_answered": ..., "report": {ibkit.pair/1}}.
  if (auto report = message->find("report"); report != message->end()) {
    (void)ibkit::pair_report_from_json(*report);
  }
  return 0;
}
