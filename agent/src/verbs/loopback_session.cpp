#include "verbs/loopback_session.hpp"

#include <algorithm>
#include <array>

#include "measure/figures.hpp"
#include "verbs/bandwidth_engine.hpp"
#include "verbs/latency_engine.hpp"
#include "verbs/port_counters.hpp"
#include "verbs/prepared_side.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

bool same_port(const OpenDevice& a, const OpenDevice& b) {
  return a.name == b.name && a.port == b.port;
}

// The data rate the thresholds judge by: the slower port's when the ends differ.
std::optional<double> data_rate(const OpenDevice& a, const OpenDevice& b) {
  auto rate = read_port_data_gbps(a.name, a.port);
  if (same_port(a, b)) return rate;
  auto other = read_port_data_gbps(b.name, b.port);
  if (rate && other) return std::min(*rate, *other);
  return rate ? rate : other;
}

Expected<Done> connect_to_each_other(VerbsSide& a, VerbsSide& b) {
  const Endpoint a_endpoint = local_endpoint(a);
  if (auto linked = connect_verbs_side(a, local_endpoint(b)); !linked) return linked;
  return connect_verbs_side(b, a_endpoint);
}

Expected<Done> run_latency_size(VerbsSide& a, VerbsSide& b, const TestRequest& request,
                                std::uint64_t size, const Deadline& deadline,
                                SizeMeasurement& measured) {
  if (request.op == "write") {
    reset_latency_inbox(a, size);
    reset_latency_inbox(b, size);
  }
  const LatencyPlan plan{request.op, size, request.iters, std::chrono::milliseconds(10000)};
  auto samples = run_loopback_latency(a, b, plan, deadline);
  if (!samples) return samples.error();
  measured.iterations = request.iters;
  measured.latency = latency_stats(std::move(*samples));
  return Done{};
}

// A posts to B (and B to A when bidirectional), as client and server do on two nodes.
Expected<Done> run_bandwidth_size(VerbsSide& a, VerbsSide& b, const TestRequest& request,
                                  std::uint64_t size, const Deadline& deadline,
                                  SizeMeasurement& measured) {
  const std::array<BandwidthEnd, 2> ends{BandwidthEnd{&a, bandwidth_plan(request, size, true)},
                                         BandwidthEnd{&b, bandwidth_plan(request, size, false)}};
  auto results = run_bandwidth_ends(ends, deadline);
  if (!results) return results.error();
  const BandwidthResult& forward = (*results)[0];
  measured.iterations = forward.messages;
  measured.bytes = forward.bytes;
  measured.seconds = forward.seconds;
  std::optional<DirectionSent> backward;
  if (request.bidir) {
    const BandwidthResult& b_sent = (*results)[1];
    backward = DirectionSent{b_sent.bytes, b_sent.messages, b_sent.seconds};
  }
  finish_bandwidth_size(measured, backward);
  return Done{};
}

}  // namespace

std::string port_label(const OpenDevice& device) {
  return device.name + "/" + std::to_string(device.port);
}

VerbsMeasurement run_loopback_test(const TestRequest& request, const DeviceChoice& a,
                                   const DeviceChoice& b, const Deadline& deadline) {
  VerbsMeasurement measurement = measurement_of(request);
  auto fail = [&](const Error& error) {
    measurement.error = error.message;
    measurement.no_local_device = measurement.no_local_device || error.environment;
    return measurement;
  };
  if (auto valid = check_verbs_request(request); !valid) return fail(valid.error());

  auto first = prepare_side(request, a);
  if (!first) return fail(first.error());
  auto second = prepare_side(request, b);
  if (!second) return fail(second.error());
  VerbsSide& side_a = *first->side;
  VerbsSide& side_b = *second->side;
  const bool one_port = same_port(side_a.device, side_b.device);
  measurement.loopback =
      port_label(side_a.device) + (one_port ? "" : "-" + port_label(side_b.device));
  measurement.local_device = describe(side_a.device);
  measurement.remote_device = describe(side_b.device);
  measurement.port_data_gbps = data_rate(side_a.device, side_b.device);
  if (auto linked = connect_to_each_other(side_a, side_b); !linked) return fail(linked.error());

  for (std::uint64_t size : request.sizes) {
    SizeMeasurement measured;
    measured.size = size;
    auto ran = request.test == "lat"
                   ? run_latency_size(side_a, side_b, request, size, deadline, measured)
                   : run_bandwidth_size(side_a, side_b, request, size, deadline, measured);
    if (!ran) return fail(ran.error());
    measurement.sizes.push_back(measured);
  }
  // One port counts both directions once; two ports each count their own.
  measurement.local_counter_deltas = counter_deltas(
      first->counters_before, read_port_counters(side_a.device.name, side_a.device.port));
  if (!one_port) {
    measurement.remote_counter_deltas = counter_deltas(
        second->counters_before, read_port_counters(side_b.device.name, side_b.device.port));
  }
  return measurement;
}

}  // namespace ibkit
