#pragma once

#include <cstdint>
#include <optional>

#include <infiniband/verbs.h>

#include "util/expected.hpp"
#include "verbs/device.hpp"
#include "verbs/endpoint.hpp"
#include "verbs/owners.hpp"

namespace ibkit {

// RC transport timer of a try: 4.096 us x 2^14 = 67 ms, as perftest's default; 7 tries, then
// the QP fails with IBV_WC_RETRY_EXC_ERR.
inline constexpr std::uint8_t kDefaultAckTimeout = 14;

struct QueuePairCaps {
  std::uint32_t send_depth = 128;
  std::uint32_t recv_depth = 512;
  std::uint32_t max_inline = 236;  // asked for; the device may grant less (then 0)
  // Unset: kDefaultAckTimeout, or through rdma_cm the timeout rdma_cm derives for the path.
  std::optional<std::uint8_t> ack_timeout;
};

// Creates an RC queue pair and moves it to INIT. Retries without inline data when the device
// refuses the inline size, so max_inline in the result is what the QP really has.
Expected<QueuePairPtr> create_rc_queue_pair(const OpenDevice& device, ibv_pd* pd, ibv_cq* send_cq,
                                            ibv_cq* recv_cq, const QueuePairCaps& caps,
                                            std::uint32_t& granted_inline);

// RDMA reads (and atomics) a queue pair keeps in flight, as the device allows (1 to 16).
int read_depth(const OpenDevice& device);

// Moves an INIT queue pair through RTR to RTS against the peer's QP number `remote_qpn`:
// path MTU the smaller of both active MTUs, GRH with the peer's GID on RoCE, LID otherwise;
// `ack_timeout` is the exponent of the transport timer (kDefaultAckTimeout).
Expected<Done> connect_rc_queue_pair(ibv_qp* qp, const OpenDevice& device, const Endpoint& remote,
                                     std::uint32_t remote_qpn, std::uint32_t remote_psn,
                                     std::uint32_t local_psn, std::uint8_t ack_timeout);

}  // namespace ibkit
