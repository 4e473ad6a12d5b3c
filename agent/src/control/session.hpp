#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "control/auth.hpp"
#include "control/channel.hpp"
#include "control/measurement_request.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// The client's side of a session, in order: connect_to_peer, start_session, then the test's
// own exchange, which ends with the server's {"type": "result"} (receive_type(..., "result")).
//
// Connects to an `ibkit serve` at host:port and runs TLS 1.3 with `key` as the PSK, which
// proves the key both ways and protects every frame after (nullopt: plain frames, which only a
// server without a key, on loopback, accepts). The deadline bounds the connect and the
// handshake. Fails with a message naming the peer: refused, no answer, the peer does not hold
// this key, it has none, not an ibkit agent of this version.
Expected<std::unique_ptr<Channel>> connect_to_peer(const std::string& host, std::uint16_t port,
                                                   const std::optional<SharedKey>& key,
                                                   const Deadline& deadline);

// Sends the request and waits for the server's {"type": "accept"}, which it returns. Fails with
// the server's reason when it answers {"type": "error", "message"} (a field out of bounds, an
// unknown test), or when the deadline passes.
Expected<nlohmann::json> start_session(Channel& channel, const TestRequest& request,
                                       const Deadline& deadline);

}  // namespace ibkit
