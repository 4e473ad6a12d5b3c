#include "verbs/verbs_side.hpp"

#include <cerrno>
#include <chrono>
#include <sys/random.h>

#include "verbs/completion_events.hpp"
#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

// A random 24-bit initial packet sequence number per QP, as perftest draws one. getrandom(2)
// (glibc 2.25) rather than std::random_device: with libstdc++ linked in (IBKIT_PORTABLE),
// random_device brings in glibc 2.36's arc4random, which Azure's HPC images do not have.
std::uint32_t random_psn() {
  std::uint32_t value = 0;
  if (getrandom(&value, sizeof value, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof value)) {
    value = static_cast<std::uint32_t>(
        std::chrono::steady_clock::now().time_since_epoch().count());  // no entropy yet: any
  }
  return value & 0xffffffu;
}

}  // namespace

std::size_t VerbsSide::index_of(std::uint32_t qp_num) const {
  for (std::size_t i = 0; i < qps.size(); ++i) {
    if (qps[i]->qp_num == qp_num) return i;
  }
  return qps.size();
}

Expected<std::unique_ptr<VerbsSide>> create_verbs_side(OpenDevice device, int qps,
                                                       std::size_t region_bytes,
                                                       const QueuePairCaps& caps,
                                                       bool completion_events) {
  auto side = std::make_unique<VerbsSide>();
  side->device = std::move(device);
  side->caps = caps;
  side->pd.reset(ibv_alloc_pd(side->device.context.get()));
  if (!side->pd) return verbs_error("ibv_alloc_pd", errno);

  side->region_bytes = region_bytes;
  const std::size_t total = region_bytes * static_cast<std::size_t>(qps);
  side->buffer = allocate_aligned(total);
  if (!side->buffer)
    return Error{"cannot allocate " + std::to_string(total) + " bytes for the test buffer"};
  side->mr.reset(
      ibv_reg_mr(side->pd.get(), side->buffer.get(), total,
                 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ));
  if (!side->mr) return verbs_error("ibv_reg_mr", errno);

  const int qp_count = qps;
  const int send_entries = static_cast<int>(caps.send_depth) * qp_count;
  const int recv_entries = static_cast<int>(caps.recv_depth) * qp_count;
  if (completion_events) {
    auto channel = create_completion_channel(side->device.context.get());
    if (!channel) return channel.error();
    side->channel = std::move(*channel);
  }
  side->send_cq.reset(
      ibv_create_cq(side->device.context.get(), send_entries, nullptr, side->channel.get(), 0));
  if (!side->send_cq) return verbs_error("ibv_create_cq (send)", errno);
  side->recv_cq.reset(
      ibv_create_cq(side->device.context.get(), recv_entries, nullptr, side->channel.get(), 0));
  if (!side->recv_cq) return verbs_error("ibv_create_cq (recv)", errno);
  if (completion_events) {
    if (auto armed = arm_completion_queue(side->send_cq.get()); !armed) return armed.error();
    if (auto armed = arm_completion_queue(side->recv_cq.get()); !armed) return armed.error();
  }

  for (int i = 0; i < qp_count; ++i) {
    std::uint32_t granted = 0;
    auto qp = create_rc_queue_pair(side->device, side->pd.get(), side->send_cq.get(),
                                   side->recv_cq.get(), caps, granted);
    if (!qp) return qp.error();
    side->max_inline = granted;
    side->qps.push_back(std::move(*qp));
    side->psns.push_back(random_psn());
  }
  return side;
}

Endpoint local_endpoint(const VerbsSide& side) {
  Endpoint endpoint;
  endpoint.lid = side.device.port_attr.lid;
  endpoint.gid.assign(side.device.gid.raw, side.device.gid.raw + 16);
  endpoint.mtu = static_cast<int>(side.device.port_attr.active_mtu);
  for (const auto& qp : side.qps) endpoint.qpns.push_back(qp->qp_num);
  endpoint.psns = side.psns;
  endpoint.rkey = side.mr->rkey;
  endpoint.address = reinterpret_cast<std::uint64_t>(side.buffer.get());
  endpoint.buffer_bytes = side.region_bytes;
  endpoint.max_inline = side.max_inline;
  return endpoint;
}

Expected<Done> adopt_remote(VerbsSide& side, const Endpoint& remote) {
  if (remote.qpns.size() != side.qps.size()) {
    return Error{"the peer offers " + std::to_string(remote.qpns.size()) +
                 " queue pairs, this side has " + std::to_string(side.qps.size())};
  }
  side.remote = remote;
  return Done{};
}

Expected<Done> connect_verbs_side(VerbsSide& side, const Endpoint& remote) {
  if (auto adopted = adopt_remote(side, remote); !adopted) return adopted;
  for (std::size_t i = 0; i < side.qps.size(); ++i) {
    auto connected = connect_rc_queue_pair(side.qps[i].get(), side.device, remote, remote.qpns[i],
                                           remote.psns[i], side.psns[i],
                                           side.caps.ack_timeout.value_or(kDefaultAckTimeout));
    if (!connected) return connected.error();
  }
  return Done{};
}

}  // namespace ibkit
