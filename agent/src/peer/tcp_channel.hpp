#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "peer/channel.hpp"
#include "peer/socket.hpp"

namespace ibkit {

// JSON nested deeper than this in a frame is refused as garbage.
inline constexpr int kMaxFrameDepth = 16;

// One frame on the wire: a 4-byte big-endian length, then that many bytes of a JSON object.
// Fails when the encoded message is larger than kMaxFrameBytes.
Expected<std::string> encode_frame(const nlohmann::json& message);

// The Channel over a connected TCP socket (not yet authenticated: see peer/session.hpp). Errors
// name the peer ("peer 10.0.0.2:40112 ..."). A frame that is too large, empty or not a JSON
// object is answered with an error message and ends the connection.
class TcpChannel final : public Channel {
 public:
  explicit TcpChannel(Socket socket);

  Expected<Done> send(const nlohmann::json& message, const Deadline& deadline) override;
  Expected<nlohmann::json> receive(const Deadline& deadline) override;
  std::string peer_address() const override { return socket_.peer().address; }
  std::string local_address() const override { return socket_.local().address; }
  int hangup_fd() const override { return socket_.fd(); }

  // Ends the connection now: a thread blocked in send or receive wakes with an error. Safe to
  // call from another thread.
  void shut_down() { socket_.shutdown_both(); }
  const Socket& socket() const { return socket_; }

 private:
  // Tells the peer its frame was refused, ends the connection, and returns the Error.
  Error refuse_frame(const std::string& what);

  Socket socket_;
};

}  // namespace ibkit
