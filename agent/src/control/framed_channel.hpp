#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "control/channel.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// JSON nested deeper than this in a frame is refused as garbage.
inline constexpr int kMaxFrameDepth = 16;

// One frame on the wire: a 4-byte big-endian length, then that many bytes of a JSON object.
// Fails when the encoded message is larger than kMaxFrameBytes.
Expected<std::string> encode_frame(const nlohmann::json& message);

// A frame's body as receive reads it, without exceptions: nullopt for anything but a JSON
// object no deeper than kMaxFrameDepth. (receive refuses a length over kMaxFrameBytes before
// reading the body.)
std::optional<nlohmann::json> parse_frame_body(std::string_view body);

// The frames of docs/protocol.md over a byte stream that a subclass provides (plain TCP, or
// TLS). Errors name the peer ("peer 10.0.0.2:40112 ..."). A frame that is too large, empty or
// not a JSON object is answered with an error message and ends the connection.
class FramedChannel : public Channel {
 public:
  Expected<Done> send(const nlohmann::json& message, const Deadline& deadline) override;
  Expected<nlohmann::json> receive(const Deadline& deadline) override;

  // Ends the connection now: a thread blocked in send or receive wakes with an error. Safe to
  // call from another thread.
  virtual void shut_down() = 0;
  // "peer 10.0.0.1:18515", the prefix of this channel's error messages.
  virtual std::string peer_name() const = 0;

 protected:
  // Writes all `size` bytes; fails when the deadline passes or the peer is gone.
  virtual Expected<Done> send_bytes(const void* data, std::size_t size,
                                    const Deadline& deadline) = 0;
  // Reads exactly `size` bytes; fails on timeout, a reset or end of stream (socket.hpp's
  // receive_ended and receive_timed_out say so, `what` naming the bytes).
  virtual Expected<Done> receive_bytes(void* data, std::size_t size, const Deadline& deadline,
                                       const char* what) = 0;

 private:
  // Tells the peer its frame was refused, ends the connection, and returns the Error.
  Error refuse_frame(const std::string& what);
};

}  // namespace ibkit
