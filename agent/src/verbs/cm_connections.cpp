#include "verbs/cm_connections.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <poll.h>

#include "verbs/verbs_error.hpp"

namespace ibkit {
namespace {

constexpr int kBacklog = 64;
constexpr int kRetries = 7;  // transport and RNR retries, as perftest sets them

// A numeric address (an IPv4-mapped IPv6 one as plain IPv4) and a port as a socket address.
Expected<sockaddr_storage> socket_address(std::string address, std::uint16_t port) {
  sockaddr_storage storage{};
  if (address.rfind("::ffff:", 0) == 0 && address.find('.') != std::string::npos) {
    address = address.substr(7);
  }
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
  } else if (inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
  } else {
    return Error{"rdma_cm needs a numeric address, not \"" + address + "\""};
  }
  return storage;
}

// Moves `qp` to `state` with the attributes rdma_cm derived for the connection, and the ACK
// timeout asked for instead of rdma_cm's when there is one.
Expected<Done> move_qp(rdma_cm_id* id, ibv_qp* qp, ibv_qp_state state, int rd_atomic,
                       std::optional<std::uint8_t> ack_timeout) {
  ibv_qp_attr attr{};
  int mask = 0;
  attr.qp_state = state;
  if (int rc = rdma_init_qp_attr(id, &attr, &mask); rc != 0) {
    return verbs_error("rdma_init_qp_attr", errno);
  }
  // rdma_cm fills the depths from the handshake; keep them within what the QP was made for.
  if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) {
    attr.max_dest_rd_atomic =
        static_cast<std::uint8_t>(std::min<int>(attr.max_dest_rd_atomic, rd_atomic));
  }
  if ((mask & IBV_QP_TIMEOUT) && ack_timeout) attr.timeout = *ack_timeout;
  if (mask & IBV_QP_MAX_QP_RD_ATOMIC) {
    attr.max_rd_atomic = static_cast<std::uint8_t>(std::min<int>(attr.max_rd_atomic, rd_atomic));
  }
  if (int rc = ibv_modify_qp(qp, &attr, mask); rc != 0) {
    return verbs_error(
        state == IBV_QPS_RTR ? "ibv_modify_qp to RTR (rdma_cm)" : "ibv_modify_qp to RTS (rdma_cm)",
        rc);
  }
  return Done{};
}

rdma_conn_param connection_parameters(ibv_qp* qp, int rd_atomic) {
  rdma_conn_param param{};
  param.qp_num = qp->qp_num;
  param.responder_resources = static_cast<std::uint8_t>(rd_atomic);
  param.initiator_depth = static_cast<std::uint8_t>(rd_atomic);
  param.retry_count = kRetries;
  param.rnr_retry_count = kRetries;
  return param;
}

Expected<CmChannelPtr> create_channel() {
  CmChannelPtr channel(rdma_create_event_channel());
  if (!channel) {
    return verbs_error("rdma_create_event_channel (is rdma_ucm loaded?)", errno);
  }
  return channel;
}

Expected<CmIdPtr> create_id(rdma_event_channel* channel) {
  rdma_cm_id* id = nullptr;
  if (rdma_create_id(channel, &id, nullptr, RDMA_PS_TCP) != 0) {
    return verbs_error("rdma_create_id", errno);
  }
  return CmIdPtr(id);
}

}  // namespace

Expected<rdma_cm_event*> CmConnections::next_event(rdma_cm_event_type wanted,
                                                   const Deadline& deadline) {
  pollfd watch{channel_->fd, POLLIN, 0};
  int ready = 0;
  do {
    ready = poll(&watch, 1, deadline.remaining_ms());
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) return verbs_error("poll on the rdma_cm channel", errno);
  if (ready == 0) {
    return Error{std::string("rdma_cm: no ") + rdma_event_str(wanted) + " from " + address_ +
                 " before the deadline"};
  }
  rdma_cm_event* event = nullptr;
  if (rdma_get_cm_event(channel_.get(), &event) != 0)
    return verbs_error("rdma_get_cm_event", errno);
  if (event->event == wanted) return event;
  std::string message = std::string("rdma_cm: ") + rdma_event_str(event->event) + " from " +
                        address_ + " instead of " + rdma_event_str(wanted);
  if (event->status != 0) message += " (status " + std::to_string(event->status) + ")";
  if (event->event == RDMA_CM_EVENT_ADDR_ERROR) {
    message +=
        ": the address is not reachable through an RDMA device; use the peer's fabric address";
  } else if (event->event == RDMA_CM_EVENT_REJECTED) {
    message += ": the peer refused the connection";
  }
  rdma_ack_cm_event(event);
  return Error{message};
}

Expected<CmConnections> CmConnections::listen(const std::string& address) {
  CmConnections cm;
  cm.address_ = address;
  auto where = socket_address(address, 0);
  if (!where) return where.error();
  auto channel = create_channel();
  if (!channel) return channel.error();
  cm.channel_ = std::move(*channel);
  auto id = create_id(cm.channel_.get());
  if (!id) return id.error();
  cm.first_ = std::move(*id);
  if (rdma_bind_addr(cm.first_.get(), reinterpret_cast<sockaddr*>(&*where)) != 0) {
    return verbs_error("rdma_bind_addr " + address, errno);
  }
  if (cm.first_->verbs == nullptr) {
    return Error{"rdma_cm: " + address + " is on no RDMA device; --cm needs the control channel " +
                 "on the fabric address"};
  }
  if (rdma_listen(cm.first_.get(), kBacklog) != 0) return verbs_error("rdma_listen", errno);
  cm.port_ = ntohs(rdma_get_src_port(cm.first_.get()));
  return cm;
}

Expected<CmIdPtr> CmConnections::resolved_id(const Deadline& deadline) {
  auto where = socket_address(address_, port_);
  if (!where) return where.error();
  auto id = create_id(channel_.get());
  if (!id) return id.error();
  const int timeout_ms = std::max(1, deadline.remaining_ms());
  if (rdma_resolve_addr(id->get(), nullptr, reinterpret_cast<sockaddr*>(&*where), timeout_ms) !=
      0) {
    return verbs_error("rdma_resolve_addr " + address_, errno);
  }
  auto resolved = next_event(RDMA_CM_EVENT_ADDR_RESOLVED, deadline);
  if (!resolved) return resolved.error();
  rdma_ack_cm_event(*resolved);
  if (rdma_resolve_route(id->get(), timeout_ms) != 0) {
    return verbs_error("rdma_resolve_route " + address_, errno);
  }
  auto routed = next_event(RDMA_CM_EVENT_ROUTE_RESOLVED, deadline);
  if (!routed) return routed.error();
  rdma_ack_cm_event(*routed);
  return id;
}

Expected<CmConnections> CmConnections::resolve(const std::string& address, std::uint16_t port,
                                               const Deadline& deadline) {
  CmConnections cm;
  cm.address_ = address;
  cm.port_ = port;
  auto channel = create_channel();
  if (!channel) return channel.error();
  cm.channel_ = std::move(*channel);
  auto id = cm.resolved_id(deadline);
  if (!id) return id.error();
  cm.first_ = std::move(*id);
  return cm;
}

DeviceChoice CmConnections::device() const {
  const rdma_cm_id* id = first_ ? first_.get() : connections_.front().get();
  DeviceChoice choice;
  choice.device = ibv_get_device_name(id->verbs->device);
  choice.port = id->port_num;
  return choice;
}

Expected<Done> CmConnections::accept(ibv_qp* qp, int rd_atomic,
                                     std::optional<std::uint8_t> ack_timeout,
                                     const Deadline& deadline) {
  auto request = next_event(RDMA_CM_EVENT_CONNECT_REQUEST, deadline);
  if (!request) return request.error();
  CmIdPtr id((*request)->id);
  rdma_ack_cm_event(*request);
  if (auto rtr = move_qp(id.get(), qp, IBV_QPS_RTR, rd_atomic, ack_timeout); !rtr)
    return rtr.error();
  if (auto rts = move_qp(id.get(), qp, IBV_QPS_RTS, rd_atomic, ack_timeout); !rts)
    return rts.error();
  auto param = connection_parameters(qp, rd_atomic);
  if (rdma_accept(id.get(), &param) != 0) return verbs_error("rdma_accept", errno);
  auto established = next_event(RDMA_CM_EVENT_ESTABLISHED, deadline);
  if (!established) return established.error();
  rdma_ack_cm_event(*established);
  connections_.push_back(std::move(id));
  return Done{};
}

Expected<Done> CmConnections::connect(ibv_qp* qp, int rd_atomic,
                                      std::optional<std::uint8_t> ack_timeout,
                                      const Deadline& deadline) {
  CmIdPtr id;
  if (first_) {
    id = std::move(first_);
  } else {
    auto resolved = resolved_id(deadline);
    if (!resolved) return resolved.error();
    id = std::move(*resolved);
  }
  auto param = connection_parameters(qp, rd_atomic);
  if (rdma_connect(id.get(), &param) != 0) return verbs_error("rdma_connect " + address_, errno);
  // With a QP rdma_cm does not own, the handshake stops at the response until rdma_establish.
  auto response = next_event(RDMA_CM_EVENT_CONNECT_RESPONSE, deadline);
  if (!response) return response.error();
  rdma_ack_cm_event(*response);
  if (auto rtr = move_qp(id.get(), qp, IBV_QPS_RTR, rd_atomic, ack_timeout); !rtr)
    return rtr.error();
  if (auto rts = move_qp(id.get(), qp, IBV_QPS_RTS, rd_atomic, ack_timeout); !rts)
    return rts.error();
  if (rdma_establish(id.get()) != 0) return verbs_error("rdma_establish", errno);
  connections_.push_back(std::move(id));
  return Done{};
}

}  // namespace ibkit
