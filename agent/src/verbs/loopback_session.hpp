#pragma once

#include <string>

#include "control/measurement_request.hpp"
#include "measure/verbs_measurement.hpp"
#include "util/time/deadline.hpp"
#include "verbs/device.hpp"

namespace ibkit {

// "mlx5_0/1": the device and port of an opened device, as a loopback test names its ends.
std::string port_label(const OpenDevice& device);

// One verbs test ("lat" or "bw" in `request`) between two queue pairs of this node, what
// perftest's loopback runs (run_perftest_loopback 0 1 ib_write_bw): side A on `a`, side B on
// `b`, both in this process, connected to each other without any control channel. The same
// port on both (the usual case) proves the HCA, its driver, memory registration and memlock on
// this node alone; two HCAs of the node send through the fabric between them. One thread
// drives both sides with the engines of a two-node test (run_loopback_latency,
// run_bandwidth_ends), with events when request.events. Never throws and never drops a size
// already measured: a failure part-way is recorded in VerbsMeasurement::error, and one that
// found no RDMA device sets no_local_device.
VerbsMeasurement run_loopback_test(const TestRequest& request, const DeviceChoice& a,
                                   const DeviceChoice& b, const Deadline& deadline);

}  // namespace ibkit
