#include "control/session.hpp"

#include <mutex>

#include <nlohmann/json.hpp>

#include "control/tcp_channel.hpp"
#include "control/tls_channel.hpp"

namespace ibkit {
namespace {

// The client's TLS context for `key`, made once per key and process: building one costs more
// than the handshake itself, and a sweep connects hundreds of times with the same key.
Expected<std::shared_ptr<const TlsContext>> client_context(const SharedKey& key) {
  static std::mutex mutex;
  static std::string cached_key;
  static std::shared_ptr<const TlsContext> cached;
  std::lock_guard lock(mutex);
  if (cached && cached_key == key.bytes) return cached;
  auto context = TlsContext::create(TlsContext::Role::kClient, key);
  if (!context) return context.error();
  cached = std::make_shared<const TlsContext>(std::move(*context));
  cached_key = key.bytes;
  return cached;
}

}  // namespace

Expected<std::unique_ptr<Channel>> connect_to_peer(const std::string& host, std::uint16_t port,
                                                   const std::optional<SharedKey>& key,
                                                   const Deadline& deadline) {
  std::shared_ptr<const TlsContext> context;
  if (key) {
    auto made = client_context(*key);
    if (!made) return made.error();
    context = std::move(*made);
  }
  auto socket = connect_tcp(host, port, deadline);
  if (!socket) return socket.error();
  if (!context) return std::unique_ptr<Channel>(std::make_unique<TcpChannel>(std::move(*socket)));
  auto channel = TlsChannel::connect(std::move(*socket), *context, deadline);
  if (!channel) return channel.error();
  return std::unique_ptr<Channel>(std::move(*channel));
}

Expected<nlohmann::json> start_session(Channel& channel, const TestRequest& request,
                                       const Deadline& deadline) {
  auto sent = channel.send(to_json(request), deadline);
  if (!sent) return sent.error();
  return receive_type(channel, "accept", deadline);
}

}  // namespace ibkit
