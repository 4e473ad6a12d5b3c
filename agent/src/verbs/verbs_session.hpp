#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "control/channel.hpp"
#include "control/measurement_request.hpp"
#include "measure/verbs_measurement.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"
#include "verbs/device.hpp"

namespace ibkit {

// The server side of a "lat" or "bw" session on an accepted, validated request: sets up the
// queue pairs, answers each size the client starts, and ends with its counter deltas. Returns
// a summary for the server's log, or the Error that ended the session.
Expected<nlohmann::json> serve_verbs_test(Channel& channel, const TestRequest& request,
                                          const DeviceChoice& device, const Deadline& deadline);

// The client side, after start_session() was accepted. Never throws and never drops a size
// already measured: a failure part-way is recorded in VerbsMeasurement::error.
VerbsMeasurement run_verbs_test(Channel& channel, const TestRequest& request,
                                const DeviceChoice& device, const Deadline& deadline);

// Whether `op` is valid for `test` ("lat": send, write; "bw": write, read, send); else the fix.
Expected<Done> check_verbs_operation(const std::string& test, const std::string& op);

// Whether completion events (--events) apply to `test` with `op`: not to a write latency test,
// whose ping-pong polls memory (no completion where an RDMA write lands); else the fix.
Expected<Done> check_completion_events(const std::string& test, const std::string& op, bool events);

// Both of the above for a request's test, op and events.
Expected<Done> check_verbs_request(const TestRequest& request);

// A measurement of `request` before anything is measured: its test, op, QPs, direction, how it
// connects and how it waits for completions ("events" or "poll").
VerbsMeasurement measurement_of(const TestRequest& request);

}  // namespace ibkit
