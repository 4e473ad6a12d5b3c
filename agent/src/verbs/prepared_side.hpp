#pragma once

#include <cstdint>
#include <memory>

#include "control/measurement_request.hpp"
#include "util/expected.hpp"
#include "verbs/bandwidth_engine.hpp"
#include "verbs/device.hpp"
#include "verbs/port_counters.hpp"
#include "verbs/verbs_side.hpp"

namespace ibkit {

// One side of a verbs test, ready to connect, and its port's counters before the test.
struct PreparedSide {
  std::unique_ptr<VerbsSide> side;
  CounterValues counters_before;
};

// Opens the chosen device and creates the side `request` needs: one QP (lat) or request.qps,
// a region per QP for the largest size (twice that for lat: inbox and outbox), the receives of
// a send test posted, completion events when request.events. Fails with the verbs error
// (Error::environment when the node has no RDMA device).
Expected<PreparedSide> prepare_side(const TestRequest& request, const DeviceChoice& choice);

// The bandwidth plan of one size for the client's end (client) or the server's: perftest's
// window and completion moderation, which end posts and which receives sends.
BandwidthPlan bandwidth_plan(const TestRequest& request, std::uint64_t size, bool client);

}  // namespace ibkit
