#pragma once

#include <cstdint>

#include <infiniband/verbs.h>

#include "util/expected.hpp"
#include "verbs/verbs_side.hpp"

namespace ibkit {

// Immediate data of the SEND that ends a send test on a queue pair (in network byte order on
// the wire); RC delivers it after every data message of that QP.
inline constexpr std::uint32_t kEndOfTestImmediate = 0xfffffffe;

// wr_id packs the queue pair's index and how many work requests a completion accounts for.
inline std::uint64_t make_wr_id(std::size_t qp, std::uint32_t covered) {
  return (static_cast<std::uint64_t>(qp) << 32) | covered;
}
inline std::size_t wr_qp(std::uint64_t wr_id) { return static_cast<std::size_t>(wr_id >> 32); }
inline std::uint32_t wr_covered(std::uint64_t wr_id) {
  return static_cast<std::uint32_t>(wr_id & 0xffffffffu);
}

struct SendRequest {
  std::size_t qp = 0;
  ibv_wr_opcode opcode = IBV_WR_SEND;
  std::size_t local_offset = 0;   // within this QP's region
  std::size_t remote_offset = 0;  // within the peer's region (RDMA write/read)
  std::size_t bytes = 0;
  bool signaled = true;
  std::uint64_t wr_id = 0;
  std::uint32_t immediate = 0;  // IBV_WR_SEND_WITH_IMM, host order
};

// Posts one send-queue work request; data no larger than the QP's inline limit goes inline.
Expected<Done> post_send(VerbsSide& side, const SendRequest& request);

// Posts one receive of a whole region on queue pair `qp`.
Expected<Done> post_receive(VerbsSide& side, std::size_t qp);

// Fills every queue pair's receive queue (for send tests); call once per connection.
Expected<Done> post_all_receives(VerbsSide& side);

}  // namespace ibkit
