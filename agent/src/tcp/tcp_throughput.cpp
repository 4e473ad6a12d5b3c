#include "tcp/tcp_throughput.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "control/auth.hpp"
#include "control/socket.hpp"
#include "tcp/stream_pump.hpp"

namespace ibkit {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// The server waits this long for the client's data streams to connect.
constexpr auto kStreamSetupTimeout = 10s;
// Random bytes in the token each data stream presents first (sent as hex).
constexpr std::size_t kTokenBytes = 16;

Expected<Done> check_tcp_request(const TestRequest& request) {
  if (request.sizes.size() != 1) {
    return Error{"the tcp test takes exactly one write size (sizes), got " +
                 std::to_string(request.sizes.size())};
  }
  return Done{};
}

SendPlan plan_for(const TestRequest& request, bool sends) {
  SendPlan plan;
  plan.write_size = static_cast<std::size_t>(request.sizes.front());
  if (!sends) return plan;
  if (request.duration_s > 0) {
    plan.duration = std::chrono::duration<double>(request.duration_s);
  } else {
    plan.bytes = request.iters * request.sizes.front();
  }
  return plan;
}

double gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) * 8 / seconds / 1e9 : 0;
}

// Tokens are compared without an early exit, like the handshake's proofs.
bool same_token(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  return difference == 0;
}

Expected<std::vector<Socket>> accept_streams(std::vector<Listener>& listeners,
                                             const std::string& token, const Deadline& deadline) {
  std::vector<Socket> streams;
  for (std::size_t i = 0; i < listeners.size(); ++i) {
    const std::string stream = "tcp test: stream " + std::to_string(i + 1) + ": ";
    auto socket = listeners[i].accept(deadline);
    if (!socket) return Error{stream + socket.error().message};
    std::string presented(token.size(), '\0');
    auto read = socket->receive_exact(presented.data(), presented.size(), deadline, "the token");
    if (!read) return Error{stream + read.error().message};
    if (!same_token(presented, token)) {
      return Error{stream + socket->peer_name() + " did not present this session's token"};
    }
    streams.push_back(std::move(*socket));
  }
  return streams;
}

Expected<std::vector<Socket>> connect_streams(const std::string& host,
                                              const std::vector<std::uint16_t>& ports,
                                              const std::string& token, const Deadline& deadline) {
  std::vector<Socket> streams;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::string stream = "tcp test: stream " + std::to_string(i + 1) + ": ";
    auto socket = connect_tcp(host, ports[i], deadline);
    if (!socket) return Error{stream + socket.error().message};
    auto sent = socket->send_all(token.data(), token.size(), deadline);
    if (!sent) return Error{stream + sent.error().message};
    streams.push_back(std::move(*socket));
  }
  return streams;
}

// An array of exactly `count` unsigned integers in message[field].
std::optional<std::vector<std::uint64_t>> counts_field(const json& message, const char* field,
                                                       std::size_t count) {
  auto found = message.find(field);
  if (found == message.end() || !found->is_array() || found->size() != count) return std::nullopt;
  std::vector<std::uint64_t> counts;
  for (const auto& entry : *found) {
    if (!entry.is_number_unsigned()) return std::nullopt;
    counts.push_back(entry.get<std::uint64_t>());
  }
  return counts;
}

std::optional<double> seconds_field(const json& message, const char* field) {
  auto found = message.find(field);
  if (found == message.end() || !found->is_number() || found->get<double>() < 0) {
    return std::nullopt;
  }
  return found->get<double>();
}

// Checks that every byte one side sent on a stream is a byte the other received.
Expected<Done> check_delivery(const std::vector<std::uint64_t>& sent,
                              const std::vector<std::uint64_t>& received, const std::string& sender,
                              const std::string& receiver) {
  for (std::size_t i = 0; i < sent.size(); ++i) {
    if (sent[i] != received[i]) {
      return Error{"tcp test: stream " + std::to_string(i + 1) + ": " + sender + " sent " +
                   std::to_string(sent[i]) + " bytes but " + receiver + " received " +
                   std::to_string(received[i])};
    }
  }
  return Done{};
}

std::vector<std::uint64_t> sent_counts(const PumpResult& pumped) {
  std::vector<std::uint64_t> counts;
  for (const auto& stream : pumped.streams) counts.push_back(stream.sent);
  return counts;
}

std::vector<std::uint64_t> received_counts(const PumpResult& pumped) {
  std::vector<std::uint64_t> counts;
  for (const auto& stream : pumped.streams) counts.push_back(stream.received);
  return counts;
}

// The server's per-stream counts from its result message.
struct ServerCounts {
  std::vector<std::uint64_t> sent;
  std::vector<std::uint64_t> received;
  std::vector<double> receive_seconds;
  double window = 0;
};

std::optional<ServerCounts> parse_server_counts(const json& result, std::size_t streams) {
  auto list = result.find("streams");
  auto window = seconds_field(result, "receive_seconds");
  if (list == result.end() || !list->is_array() || list->size() != streams || !window) {
    return std::nullopt;
  }
  ServerCounts counts;
  counts.window = *window;
  for (const auto& stream : *list) {
    if (!stream.is_object()) return std::nullopt;
    auto sent = stream.find("sent");
    auto received = stream.find("received");
    auto seconds = seconds_field(stream, "receive_seconds");
    if (sent == stream.end() || !sent->is_number_unsigned() || received == stream.end() ||
        !received->is_number_unsigned() || !seconds) {
      return std::nullopt;
    }
    counts.sent.push_back(sent->get<std::uint64_t>());
    counts.received.push_back(received->get<std::uint64_t>());
    counts.receive_seconds.push_back(*seconds);
  }
  return counts;
}

TcpResult combine(const TestRequest& request, const PumpResult& mine, const ServerCounts& server) {
  TcpResult result;
  result.streams = request.qps;
  result.write_size = request.sizes.front();
  result.bidir = request.bidir;
  for (std::size_t i = 0; i < mine.streams.size(); ++i) {
    TcpStreamResult stream;
    stream.bytes = server.received[i] + mine.streams[i].received;
    stream.seconds = std::max(server.receive_seconds[i], mine.streams[i].receive_seconds);
    stream.gbps = gbps(stream.bytes, stream.seconds);
    result.per_stream.push_back(stream);
    result.bytes_to_peer += server.received[i];
  }
  result.bytes_from_peer = mine.received();
  result.gbps_to_peer = gbps(result.bytes_to_peer, server.window);
  if (request.bidir) result.gbps_from_peer = gbps(result.bytes_from_peer, mine.receive_seconds);
  result.bytes = result.bytes_to_peer + result.bytes_from_peer;
  result.seconds = std::max(server.window, mine.receive_seconds);
  result.gbps = gbps(result.bytes, result.seconds);
  result.mib_per_s =
      result.seconds > 0 ? static_cast<double>(result.bytes) / result.seconds / (1 << 20) : 0;
  return result;
}

std::optional<std::vector<std::uint16_t>> parse_ports(const json& message, std::size_t count) {
  auto ports = counts_field(message, "ports", count);
  if (!ports) return std::nullopt;
  std::vector<std::uint16_t> result;
  for (auto port : *ports) {
    if (port == 0 || port > 65535) return std::nullopt;
    result.push_back(static_cast<std::uint16_t>(port));
  }
  return result;
}

}  // namespace

Expected<TcpResult> run_tcp_client(Channel& channel, const TestRequest& request,
                                   const Deadline& deadline) {
  if (auto valid = check_tcp_request(request); !valid) return valid.error();
  const std::string peer = "peer " + channel.peer_address();
  auto offer = receive_type(channel, "tcp_ports", deadline);
  if (!offer) return offer.error();
  const auto qps = static_cast<std::size_t>(request.qps);
  auto ports = parse_ports(*offer, qps);
  auto token = offer->find("token");
  if (!ports || token == offer->end() || !token->is_string()) {
    return send_error(channel, peer + " sent a malformed tcp_ports message", deadline);
  }
  auto streams = connect_streams(channel.peer_address(), *ports, token->get<std::string>(),
                                 deadline.min(Deadline::after(kStreamSetupTimeout)));
  if (!streams) return send_error(channel, streams.error().message, deadline);

  auto pumped = pump_streams(*streams, plan_for(request, true), channel.hangup_fd(), deadline,
                             kTcpStallTimeout);
  if (!pumped) return send_error(channel, "tcp test: " + pumped.error().message, deadline);
  auto done = channel.send({{"type", "tcp_done"},
                            {"sent", sent_counts(*pumped)},
                            {"received", received_counts(*pumped)}},
                           deadline);
  if (!done) return done.error();

  auto result = receive_type(channel, "result", deadline);
  if (!result) return result.error();
  auto server = parse_server_counts(*result, qps);
  if (!server) return Error{peer + " sent a malformed tcp result"};
  auto delivered = check_delivery(sent_counts(*pumped), server->received, "this client", peer);
  if (!delivered) return delivered.error();
  auto returned = check_delivery(server->sent, received_counts(*pumped), peer, "this client");
  if (!returned) return returned.error();
  return combine(request, *pumped, *server);
}

Expected<nlohmann::json> serve_tcp(Channel& channel, const TestRequest& request,
                                   const Deadline& deadline) {
  if (auto valid = check_tcp_request(request); !valid) return valid.error();
  const std::string peer = "peer " + channel.peer_address();
  std::vector<Listener> listeners;
  json ports = json::array();
  for (int i = 0; i < request.qps; ++i) {
    auto listener = Listener::open(channel.local_address(), 0);
    if (!listener) return Error{"tcp test: " + listener.error().message};
    ports.push_back(listener->local().port);
    listeners.push_back(std::move(*listener));
  }
  const std::string token = random_hex(kTokenBytes);
  auto offered =
      channel.send({{"type", "tcp_ports"}, {"ports", ports}, {"token", token}}, deadline);
  if (!offered) return offered.error();

  auto streams =
      accept_streams(listeners, token, deadline.min(Deadline::after(kStreamSetupTimeout)));
  listeners.clear();  // nobody else may connect once the streams are in
  if (!streams) return streams.error();
  auto pumped = pump_streams(*streams, plan_for(request, request.bidir), channel.hangup_fd(),
                             deadline, kTcpStallTimeout);
  if (!pumped) return Error{"tcp test: " + pumped.error().message};

  auto done = receive_type(channel, "tcp_done", deadline);
  if (!done) return done.error();
  auto client_sent = counts_field(*done, "sent", streams->size());
  auto client_received = counts_field(*done, "received", streams->size());
  if (!client_sent || !client_received) return Error{peer + " sent a malformed tcp_done message"};
  auto delivered = check_delivery(*client_sent, received_counts(*pumped), peer, "this server");
  if (!delivered) return delivered.error();
  auto returned = check_delivery(sent_counts(*pumped), *client_received, "this server", peer);
  if (!returned) return returned.error();

  json per_stream = json::array();
  for (const auto& stream : pumped->streams) {
    per_stream.push_back({{"sent", stream.sent},
                          {"received", stream.received},
                          {"receive_seconds", stream.receive_seconds}});
  }
  return json{{"streams", per_stream}, {"receive_seconds", pumped->receive_seconds}};
}

}  // namespace ibkit
