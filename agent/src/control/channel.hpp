#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

inline constexpr std::uint16_t kDefaultControlPort = 18515;  // perftest's default port
inline constexpr std::size_t kMaxFrameBytes = 64 * 1024;

// An authenticated control connection between two agents. Messages are JSON objects in
// length-prefixed frames of at most kMaxFrameBytes; every call takes a deadline and fails
// with an Error (never blocks past it) on timeout, a closed peer, an oversize or garbage frame.
class Channel {
 public:
  virtual ~Channel() = default;

  // Sends one message. Fails when the deadline passes or the peer is gone.
  virtual Expected<Done> send(const nlohmann::json& message, const Deadline& deadline) = 0;

  // Receives one message, which is always a JSON object. Fails on timeout, end of stream, a
  // frame larger than kMaxFrameBytes, or bytes that are not a JSON object.
  virtual Expected<nlohmann::json> receive(const Deadline& deadline) = 0;

  // The peer's numeric address ("192.168.77.12"), for messages and for connecting data streams.
  virtual std::string peer_address() const = 0;
  // This end's numeric address on the connection.
  virtual std::string local_address() const = 0;

  // A descriptor for poll(2) that reports POLLRDHUP or POLLHUP once the peer has closed the
  // connection, so a long wait elsewhere (a data transfer) can notice a vanished peer; -1 when
  // the channel has none.
  virtual int hangup_fd() const { return -1; }
};

// Receives one message and checks that its "type" is `type`; a {"type": "error"} from the peer
// becomes an Error carrying its "message".
Expected<nlohmann::json> receive_type(Channel& channel, const std::string& type,
                                      const Deadline& deadline);

// Tells the peer why this side gives up, as {"type": "error", "message": reason} (best effort:
// the peer may be gone), and returns the reason as an Error.
Error send_error(Channel& channel, const std::string& reason, const Deadline& deadline);

}  // namespace ibkit
