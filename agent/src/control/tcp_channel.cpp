#include "control/tcp_channel.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace ibkit {

void tune_control_socket(const Socket& socket) {
  int yes = 1;
  setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  // A control channel sits idle for a whole test. If the peer's node or link dies meanwhile,
  // no FIN ever comes; keepalive probes (after 10 s idle, every 5 s, 3 unanswered) turn that
  // into a socket error within ~25 s instead of a wait until the session's deadline.
  int idle_s = 10;
  int interval_s = 5;
  int probes = 3;
  setsockopt(socket.fd(), SOL_SOCKET, SO_KEEPALIVE, &yes, sizeof yes);
  setsockopt(socket.fd(), IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
  setsockopt(socket.fd(), IPPROTO_TCP, TCP_KEEPINTVL, &interval_s, sizeof interval_s);
  setsockopt(socket.fd(), IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
}

TcpChannel::TcpChannel(Socket socket) : socket_(std::move(socket)) { tune_control_socket(socket_); }

Expected<Done> TcpChannel::send_bytes(const void* data, std::size_t size,
                                      const Deadline& deadline) {
  return socket_.send_all(data, size, deadline);
}

Expected<Done> TcpChannel::receive_bytes(void* data, std::size_t size, const Deadline& deadline,
                                         const char* what) {
  return socket_.receive_exact(data, size, deadline, what);
}

}  // namespace ibkit
