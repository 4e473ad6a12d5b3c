#include "verbs/prepared_side.hpp"

#include <algorithm>

#include "verbs/send_window.hpp"
#include "verbs/work_requests.hpp"

namespace ibkit {

Expected<PreparedSide> prepare_side(const TestRequest& request, const DeviceChoice& choice) {
  auto device = open_device(choice);
  if (!device) return device.error();
  const std::size_t largest = *std::max_element(request.sizes.begin(), request.sizes.end());
  const bool latency = request.test == "lat";
  QueuePairCaps caps;
  caps.send_depth = latency ? 128 : static_cast<std::uint32_t>(request.tx_depth) + 1;
  caps.recv_depth = request.op == "send" ? 512 : 1;
  if (request.ack_timeout) caps.ack_timeout = static_cast<std::uint8_t>(*request.ack_timeout);
  auto side = create_verbs_side(std::move(*device), latency ? 1 : request.qps,
                                latency ? 2 * largest : largest, caps, request.events);
  if (!side) return side.error();
  if (request.op == "send") {
    if (auto posted = post_all_receives(**side); !posted) return posted.error();
  }
  PreparedSide prepared{std::move(*side), {}};
  prepared.counters_before =
      read_port_counters(prepared.side->device.name, prepared.side->device.port);
  return prepared;
}

BandwidthPlan bandwidth_plan(const TestRequest& request, std::uint64_t size, bool client) {
  BandwidthPlan plan;
  plan.op = request.op;
  plan.size = size;
  plan.iters = request.iters;
  plan.duration_s = request.duration_s;
  // By duration, a bounded window: what is in flight when the time is up drains quickly.
  plan.tx_depth =
      send_window(size, static_cast<std::uint32_t>(request.tx_depth), request.duration_s > 0);
  // perftest signals one request in 100. With large messages that leaves so much data between
  // completions that a slow link looks stalled, so a completion also covers at most 8 MiB
  // (a few seconds at the few MB/s of an emulated lab, well inside the stall timeout below);
  // up to 80 KiB messages that is perftest's moderation exactly.
  const auto per_8_mib = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (8u << 20) / size));
  plan.cq_moderation = std::min({std::uint32_t{100}, plan.tx_depth, per_8_mib});
  // No completion for 10 s (plus a second per MiB a message carries) means the peer is gone.
  plan.stall = std::chrono::milliseconds(10000 + 1000 * (size >> 20));
  plan.post_data = client || request.bidir;
  plan.receive_sends = request.op == "send" && (!client || request.bidir);
  return plan;
}

}  // namespace ibkit
