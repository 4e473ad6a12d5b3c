#pragma once

#include <string>

#include "control/framed_channel.hpp"
#include "control/socket.hpp"

namespace ibkit {

// Frames over a plain TCP socket: what a server without a key speaks, on loopback only (see
// cli/serve_command.hpp); every other connection runs TLS (control/tls_channel.hpp).
class TcpChannel final : public FramedChannel {
 public:
  explicit TcpChannel(Socket socket);

  std::string peer_address() const override { return socket_.peer().address; }
  std::string local_address() const override { return socket_.local().address; }
  int hangup_fd() const override { return socket_.fd(); }
  void shut_down() override { socket_.shutdown_both(); }
  std::string peer_name() const override { return socket_.peer_name(); }

  const Socket& socket() const { return socket_; }

 protected:
  Expected<Done> send_bytes(const void* data, std::size_t size, const Deadline& deadline) override;
  Expected<Done> receive_bytes(void* data, std::size_t size, const Deadline& deadline,
                               const char* what) override;

 private:
  Socket socket_;
};

// Sets what every control connection wants of its socket: no Nagle delay, and keepalive probes
// that notice a peer whose node or link died (no FIN ever comes) within ~25 s.
void tune_control_socket(const Socket& socket);

}  // namespace ibkit
