#include "control/framed_channel.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "util/files/bounded_json.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kHeaderBytes = 4;

std::uint32_t read_big_endian(const std::array<unsigned char, kHeaderBytes>& header) {
  return (std::uint32_t{header[0]} << 24) | (std::uint32_t{header[1]} << 16) |
         (std::uint32_t{header[2]} << 8) | std::uint32_t{header[3]};
}

}  // namespace

std::optional<nlohmann::json> parse_frame_body(std::string_view body) {
  auto message = parse_json_within_depth(body, kMaxFrameDepth);
  if (!message || !message->is_object()) return std::nullopt;
  return std::move(*message);
}

Expected<std::string> encode_frame(const nlohmann::json& message) {
  const std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (body.size() > kMaxFrameBytes) {
    return Error{"a message of " + std::to_string(body.size()) +
                 " bytes is over the frame limit of " + std::to_string(kMaxFrameBytes)};
  }
  const auto length = static_cast<std::uint32_t>(body.size());
  std::string frame;
  frame.reserve(kHeaderBytes + body.size());
  frame.push_back(static_cast<char>((length >> 24) & 0xff));
  frame.push_back(static_cast<char>((length >> 16) & 0xff));
  frame.push_back(static_cast<char>((length >> 8) & 0xff));
  frame.push_back(static_cast<char>(length & 0xff));
  frame += body;
  return frame;
}

Expected<Done> FramedChannel::send(const nlohmann::json& message, const Deadline& deadline) {
  auto frame = encode_frame(message);
  if (!frame) return Error{"to " + peer_name() + ": " + frame.error().message};
  return send_bytes(frame->data(), frame->size(), deadline);
}

Expected<nlohmann::json> FramedChannel::receive(const Deadline& deadline) {
  std::array<unsigned char, kHeaderBytes> header{};
  auto got_header = receive_bytes(header.data(), header.size(), deadline, "a frame header");
  if (!got_header) return got_header.error();
  // The length is checked before anything is allocated for the body: a peer never chooses
  // how much memory this agent spends.
  const std::uint32_t length = read_big_endian(header);
  if (length > kMaxFrameBytes) {
    return refuse_frame("a frame of " + std::to_string(length) + " bytes, over the limit of " +
                        std::to_string(kMaxFrameBytes));
  }
  if (length == 0) return refuse_frame("an empty frame");
  std::string body(length, '\0');
  auto got_body = receive_bytes(body.data(), body.size(), deadline, "a frame");
  if (!got_body) return got_body.error();
  auto message = parse_frame_body(body);
  if (!message) {
    return refuse_frame("a frame that is not a JSON object of depth " +
                        std::to_string(kMaxFrameDepth) + " or less");
  }
  return std::move(*message);
}

Error FramedChannel::refuse_frame(const std::string& what) {
  // The reply helps whoever writes another implementation; the bytes that follow a bad frame
  // are not read, so the connection is unusable and ends here.
  send({{"type", "error"}, {"message", "ibkit refused " + what + " (docs/protocol.md)"}},
       Deadline::after(std::chrono::seconds(1)));
  shut_down();
  return Error{peer_name() + " sent " + what + " (not an ibkit agent?)"};
}

}  // namespace ibkit
