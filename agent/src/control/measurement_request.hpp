#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "control/request_bounds.hpp"
#include "util/expected.hpp"

namespace ibkit {

// What a client asks a server to run with it. The server validates every field against the
// bounds below before it allocates anything: a peer is never trusted.
struct TestRequest {
  std::string test = "lat";             // "lat", "bw", "tcp"
  std::string op = "send";              // verbs: "send", "write", "read"
  std::vector<std::uint64_t> sizes{2};  // message sizes in bytes, run in this order
  int qps = 1;                          // queue pairs (bw) or TCP streams (tcp)
  std::uint64_t iters = 1000;           // iterations per size (0 when duration is used)
  double duration_s = 0;                // run each size this long instead of `iters`
  bool bidir = false;                   // bw/tcp: both directions at once
  bool use_cm = false;                  // connect the QPs through rdma_cm instead of the channel
  int tx_depth = 128;                   // bw: outstanding work requests per QP
  bool events = false;                  // verbs: wait for completions on a completion channel
                                        // (perftest -e), both ends, instead of busy-polling
  std::optional<int> rail;              // verbs: the server's rail i (verbs/rails.hpp); unset:
                                        // its first device with an Active port
  std::optional<int> ack_timeout;       // verbs: both ends' RC ACK timeout, 4.096 us x 2^N a
                                        // try (perftest -u); unset: the default of the way
                                        // the QPs connect (verbs/queue_pair.hpp, rdma_cm's own)
};

// The request as sent on the wire ({"type": "request", ...every field}). A request with a
// duration is sent with iters 0: the duration wins; "rail" and "ack_timeout" are sent only
// when set, "events" only when true (so a server that predates them still takes every request
// without them).
nlohmann::json to_json(const TestRequest& request);

// Reads and bounds-checks a request from the wire; the Error names the field and its bounds.
// "test" is required, other fields default as above; unknown fields, wrong JSON types and a
// request with both or neither of iters and duration_s are refused. Which tests exist is the
// server's business (control/server.hpp), not this function's.
Expected<TestRequest> request_from_json(const nlohmann::json& message);

}  // namespace ibkit
