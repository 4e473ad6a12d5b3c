#include "peer/session.hpp"

#include "peer/tcp_channel.hpp"

namespace ibkit {

Expected<std::unique_ptr<Channel>> connect_to_peer(const std::string& host, std::uint16_t port,
                                                   const std::optional<SharedKey>& key,
                                                   const Deadline& deadline) {
  auto socket = connect_tcp(host, port, deadline);
  if (!socket) return socket.error();
  auto channel = std::make_unique<TcpChannel>(std::move(*socket));
  auto authenticated = authenticate_server(*channel, key, deadline);
  if (!authenticated) return authenticated.error();
  return std::unique_ptr<Channel>(std::move(channel));
}

Expected<nlohmann::json> start_session(Channel& channel, const TestRequest& request,
                                       const Deadline& deadline) {
  auto sent = channel.send(to_json(request), deadline);
  if (!sent) return sent.error();
  return receive_type(channel, "accept", deadline);
}

}  // namespace ibkit
