#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ibkit::fuzz {

// A frame's body read as TcpChannel::receive reads it: a JSON object no deeper than
// kMaxFrameDepth; nullopt for anything else, and for a body over kMaxFrameBytes.
std::optional<nlohmann::json> parse_frame_body(std::string_view body);

// True when encode_frame takes `message` (it fits a frame).
bool fits_frame(const nlohmann::json& message);

}  // namespace ibkit::fuzz
