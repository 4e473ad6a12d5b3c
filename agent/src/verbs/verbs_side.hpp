#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "util/expected.hpp"
#include "verbs/device.hpp"
#include "verbs/endpoint.hpp"
#include "verbs/owners.hpp"
#include "verbs/queue_pair.hpp"

namespace ibkit {

// One side of a test: the device, a registered buffer split into one region per queue pair,
// the completion queues and the RC queue pairs. Members are declared in creation order, so
// they are destroyed in reverse: QPs before CQs before the channel, the MR, the PD and the
// device.
struct VerbsSide {
  OpenDevice device;
  ProtectionDomainPtr pd;
  AlignedBuffer buffer;
  std::size_t region_bytes = 0;
  MemoryRegionPtr mr;
  CompletionChannelPtr channel;  // both CQs report to it when completions are event-driven
  CompletionQueuePtr send_cq;
  CompletionQueuePtr recv_cq;
  std::vector<QueuePairPtr> qps;
  std::vector<std::uint32_t> psns;
  std::uint32_t max_inline = 0;
  QueuePairCaps caps;
  Endpoint remote;  // the peer's, once connected

  std::byte* region(std::size_t qp) const { return buffer.get() + qp * region_bytes; }
  std::uint64_t remote_region(std::size_t qp) const {
    return remote.address + qp * remote.buffer_bytes;
  }
  // The index of the queue pair with this number, or qps.size() when it is not ours.
  std::size_t index_of(std::uint32_t qp_num) const;
};

// Allocates and registers `qps` regions of `region_bytes` and creates the QPs (in INIT). With
// `completion_events` both CQs are created on a completion channel and armed, and every wait
// for a completion sleeps on it (verbs/completion_events.hpp) instead of busy-polling.
Expected<std::unique_ptr<VerbsSide>> create_verbs_side(OpenDevice device, int qps,
                                                       std::size_t region_bytes,
                                                       const QueuePairCaps& caps,
                                                       bool completion_events = false);

// What the peer needs to connect to this side.
Endpoint local_endpoint(const VerbsSide& side);

// Takes the peer's buffer and keys for the tests; the peer must offer as many QPs. For QPs
// that are already connected (through rdma_cm).
Expected<Done> adopt_remote(VerbsSide& side, const Endpoint& remote);

// Connects every QP to its peer counterpart (RTR, RTS); the peer must offer as many QPs.
Expected<Done> connect_verbs_side(VerbsSide& side, const Endpoint& remote);

}  // namespace ibkit
