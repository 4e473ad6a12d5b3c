#include "verbs/work_requests.hpp"

#include <arpa/inet.h>

#include "verbs/verbs_error.hpp"

namespace ibkit {

Expected<Done> post_send(VerbsSide& side, const SendRequest& request) {
  ibv_sge sge{};
  sge.addr = reinterpret_cast<std::uint64_t>(side.region(request.qp) + request.local_offset);
  sge.length = static_cast<std::uint32_t>(request.bytes);
  sge.lkey = side.mr->lkey;

  ibv_send_wr wr{};
  wr.wr_id = request.wr_id;
  wr.sg_list = &sge;
  wr.num_sge = request.bytes > 0 ? 1 : 0;
  wr.opcode = request.opcode;
  wr.send_flags = request.signaled ? IBV_SEND_SIGNALED : 0;
  if (request.bytes > 0 && request.bytes <= side.max_inline && request.opcode != IBV_WR_RDMA_READ) {
    wr.send_flags |= IBV_SEND_INLINE;
  }
  if (request.opcode == IBV_WR_SEND_WITH_IMM) wr.imm_data = htonl(request.immediate);
  if (request.opcode == IBV_WR_RDMA_WRITE || request.opcode == IBV_WR_RDMA_READ) {
    wr.wr.rdma.remote_addr = side.remote_region(request.qp) + request.remote_offset;
    wr.wr.rdma.rkey = side.remote.rkey;
  }
  ibv_send_wr* bad = nullptr;
  if (int rc = ibv_post_send(side.qps[request.qp].get(), &wr, &bad); rc != 0)
    return verbs_error("ibv_post_send", rc);
  return Done{};
}

Expected<Done> post_receive(VerbsSide& side, std::size_t qp) {
  ibv_sge sge{};
  sge.addr = reinterpret_cast<std::uint64_t>(side.region(qp));
  sge.length = static_cast<std::uint32_t>(side.region_bytes);
  sge.lkey = side.mr->lkey;
  ibv_recv_wr wr{};
  wr.wr_id = make_wr_id(qp, 1);
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  if (int rc = ibv_post_recv(side.qps[qp].get(), &wr, &bad); rc != 0)
    return verbs_error("ibv_post_recv", rc);
  return Done{};
}

Expected<Done> post_all_receives(VerbsSide& side) {
  for (std::size_t qp = 0; qp < side.qps.size(); ++qp) {
    for (std::uint32_t i = 0; i < side.caps.recv_depth; ++i) {
      if (auto posted = post_receive(side, qp); !posted) return posted;
    }
  }
  return Done{};
}

}  // namespace ibkit
