#include "peer_frame.hpp"

#include "peer/channel.hpp"
#include "peer/tcp_channel.hpp"

namespace ibkit::fuzz {

std::optional<nlohmann::json> parse_frame_body(std::string_view body) {
  if (body.size() > kMaxFrameBytes) return std::nullopt;
  // As peer/tcp_channel.cpp's parse_object.
  bool too_deep = false;
  auto limit_depth = [&too_deep](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxFrameDepth) too_deep = true;
    return !too_deep;
  };
  auto message = nlohmann::json::parse(body, limit_depth, /*allow_exceptions=*/false);
  if (too_deep || message.is_discarded() || !message.is_object()) return std::nullopt;
  return message;
}

bool fits_frame(const nlohmann::json& message) { return encode_frame(message).ok(); }

}  // namespace ibkit::fuzz
