#pragma once

#include <nlohmann/json_fwd.hpp>

#include "control/channel.hpp"
#include "control/measurement_request.hpp"
#include "measure/tcp_result.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Multi-stream TCP throughput over any IP address (IPoIB, to compare with verbs). The request
// gives qps = streams, sizes = {write size} (exactly one), iters (writes per stream) or
// duration_s, and bidir. The exchange is in docs/protocol.md.

// Stalled streams fail after this long without a byte moving.
inline constexpr std::chrono::seconds kTcpStallTimeout{10};

// The client's half, called after start_session was accepted: connects the data streams to the
// server's ports, sends, and combines its counts with the server's result. Fails with a message
// naming the peer when a stream cannot connect, errs, stalls, or the deadline passes, or when the
// two sides' byte counts disagree. Give it a deadline past duration_s.
Expected<TcpResult> run_tcp_client(Channel& channel, const TestRequest& request,
                                   const Deadline& deadline);

// The server's half (a ServerSide): listens for the data streams on the control connection's
// local address, receives (and with bidir also sends) until the client ends its streams, and
// returns the per-stream counts, which become the session's result message.
Expected<nlohmann::json> serve_tcp(Channel& channel, const TestRequest& request,
                                   const Deadline& deadline);

}  // namespace ibkit
