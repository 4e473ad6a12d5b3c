#include "verbs/queue_pair.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

// RC transport tries (kDefaultAckTimeout each); an RNR NAK is retried for ever (the receiver
// re-posts in time).
constexpr std::uint8_t kRetryCount = 7;
constexpr std::uint8_t kRnrRetryInfinite = 7;
constexpr std::uint8_t kMinRnrTimer = 12;
constexpr std::uint8_t kRoceHopLimit = 64;

ibv_qp* try_create(ibv_pd* pd, ibv_cq* send_cq, ibv_cq* recv_cq, const QueuePairCaps& caps,
                   std::uint32_t inline_size) {
  ibv_qp_init_attr attr{};
  attr.send_cq = send_cq;
  attr.recv_cq = recv_cq;
  attr.qp_type = IBV_QPT_RC;
  attr.cap.max_send_wr = caps.send_depth;
  attr.cap.max_recv_wr = caps.recv_depth;
  attr.cap.max_send_sge = 1;
  attr.cap.max_recv_sge = 1;
  attr.cap.max_inline_data = inline_size;
  return ibv_create_qp(pd, &attr);
}

}  // namespace

Expected<QueuePairPtr> create_rc_queue_pair(const OpenDevice& device, ibv_pd* pd, ibv_cq* send_cq,
                                            ibv_cq* recv_cq, const QueuePairCaps& caps,
                                            std::uint32_t& granted_inline) {
  QueuePairPtr qp(try_create(pd, send_cq, recv_cq, caps, caps.max_inline));
  granted_inline = caps.max_inline;
  if (!qp && caps.max_inline > 0) {
    qp.reset(try_create(pd, send_cq, recv_cq, caps, 0));
    granted_inline = 0;
  }
  if (!qp) return verbs_error("ibv_create_qp", errno);

  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.pkey_index = 0;
  attr.port_num = static_cast<std::uint8_t>(device.port);
  attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  if (int rc = ibv_modify_qp(qp.get(), &attr,
                             IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
      rc != 0) {
    return verbs_error("ibv_modify_qp to INIT", rc);
  }
  return qp;
}

int read_depth(const OpenDevice& device) {
  return std::clamp(device.device_attr.max_qp_rd_atom, 1, 16);
}

Expected<Done> connect_rc_queue_pair(ibv_qp* qp, const OpenDevice& device, const Endpoint& remote,
                                     std::uint32_t remote_qpn, std::uint32_t remote_psn,
                                     std::uint32_t local_psn, std::uint8_t ack_timeout) {
  const auto max_rd_atomic = static_cast<std::uint8_t>(read_depth(device));

  ibv_qp_attr rtr{};
  rtr.qp_state = IBV_QPS_RTR;
  rtr.path_mtu = static_cast<ibv_mtu>(std::min<int>(device.port_attr.active_mtu, remote.mtu));
  rtr.dest_qp_num = remote_qpn;
  rtr.rq_psn = remote_psn;
  rtr.max_dest_rd_atomic = max_rd_atomic;
  rtr.min_rnr_timer = kMinRnrTimer;
  rtr.ah_attr.port_num = static_cast<std::uint8_t>(device.port);
  rtr.ah_attr.dlid = remote.lid;
  if (device.roce) {
    rtr.ah_attr.is_global = 1;
    std::memcpy(rtr.ah_attr.grh.dgid.raw, remote.gid.data(), 16);
    rtr.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(device.gid_index);
    rtr.ah_attr.grh.hop_limit = kRoceHopLimit;
  }
  int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
             IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  if (int rc = ibv_modify_qp(qp, &rtr, mask); rc != 0)
    return verbs_error("ibv_modify_qp to RTR", rc);

  ibv_qp_attr rts{};
  rts.qp_state = IBV_QPS_RTS;
  rts.timeout = ack_timeout;
  rts.retry_cnt = kRetryCount;
  rts.rnr_retry = kRnrRetryInfinite;
  rts.sq_psn = local_psn;
  rts.max_rd_atomic = max_rd_atomic;
  mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
         IBV_QP_MAX_QP_RD_ATOMIC;
  if (int rc = ibv_modify_qp(qp, &rts, mask); rc != 0)
    return verbs_error("ibv_modify_qp to RTS", rc);
  return Done{};
}

}  // namespace ibkit
