#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"
#include "verbs/device.hpp"
#include "verbs/owners.hpp"

namespace ibkit {

using CmChannelPtr = std::unique_ptr<rdma_event_channel,
                                     VerbsDeleter<rdma_event_channel, rdma_destroy_event_channel>>;
using CmIdPtr = std::unique_ptr<rdma_cm_id, VerbsDeleter<rdma_cm_id, rdma_destroy_id>>;

// rdma_cm's connection setup (`--cm`, as rping and perftest -R do it) for queue pairs that stay
// ibkit's own: rdma_cm resolves the peer's IP address to a device, port and path, runs the CM
// handshake that carries the QP numbers, and rdma_init_qp_attr gives the attributes of each
// state change. Buffers and keys still go over the control channel. Every wait for an rdma_cm
// event takes a deadline. Destroy the queue pairs before this object (it disconnects).
class CmConnections {
 public:
  // The server: listens on `address`, the address the client reached the control channel on,
  // at a port the system picks. Fails when the address is on no RDMA device.
  static Expected<CmConnections> listen(const std::string& address);
  // The client: resolves address:port (the server's listener) to a local device and a path.
  static Expected<CmConnections> resolve(const std::string& address, std::uint16_t port,
                                         const Deadline& deadline);

  std::uint16_t port() const { return port_; }
  // The device and port rdma_cm picked for the address: the tests must run on them.
  DeviceChoice device() const;

  // The server: waits for the next connection request, moves `qp` (in INIT) to RTS for it and
  // accepts it; returns once the connection is established. `ack_timeout`, when set, replaces
  // the transport timer rdma_cm derives.
  Expected<Done> accept(ibv_qp* qp, int rd_atomic, std::optional<std::uint8_t> ack_timeout,
                        const Deadline& deadline);
  // The client: connects `qp` (in INIT) through a new connection (the first resolved one
  // first), moves it to RTS and completes the handshake.
  Expected<Done> connect(ibv_qp* qp, int rd_atomic, std::optional<std::uint8_t> ack_timeout,
                         const Deadline& deadline);

 private:
  CmConnections() = default;
  Expected<CmIdPtr> resolved_id(const Deadline& deadline);
  Expected<rdma_cm_event*> next_event(rdma_cm_event_type wanted, const Deadline& deadline);

  CmChannelPtr channel_;
  CmIdPtr first_;  // the listener, or the client's first resolved connection
  std::vector<CmIdPtr> connections_;
  std::string address_;
  std::uint16_t port_ = 0;
};

}  // namespace ibkit
