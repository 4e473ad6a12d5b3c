#include "config/transport_counters.hpp"

#include <algorithm>

namespace ibkit {

bool transport_kind_is_trouble(TransportKind kind) {
  return kind == TransportKind::kRetransmission || kind == TransportKind::kDuplicate ||
         transport_kind_means_loss(kind);
}

bool transport_kind_means_loss(TransportKind kind) {
  return kind == TransportKind::kSequenceError || kind == TransportKind::kRetryExhausted ||
         kind == TransportKind::kSendFailure || kind == TransportKind::kLinkDown;
}

std::string_view transport_kind_name(TransportKind kind) {
  switch (kind) {
    case TransportKind::kRetransmission:
      return "retransmissions";
    case TransportKind::kSequenceError:
      return "sequence errors";
    case TransportKind::kDuplicate:
      return "duplicate requests";
    case TransportKind::kRetryExhausted:
      return "retries exhausted";
    case TransportKind::kSendFailure:
      return "send failures";
    case TransportKind::kLinkDown:
      return "link downs";
    case TransportKind::kReceiverNotReady:
      return "receiver not ready";
    case TransportKind::kCompletionError:
      return "error completions";
    case TransportKind::kCongestion:
      return "congestion";
    case TransportKind::kTraffic:
      return "traffic";
  }
  return "traffic";
}

// From the kernel's drivers (mlx5's counters.c, rxe's rxe_hw_counters.c) and NVIDIA's
// description of the mlx5 counters. Sorted by name for find_transport_counter.
const std::vector<TransportCounter>& transport_counters() {
  using K = TransportKind;
  static const std::vector<TransportCounter> table = [] {
    std::vector<TransportCounter> counters{
        {"ack_deferred", "rxe", K::kTraffic},
        {"completer_retry_err", "rxe", K::kRetransmission},
        {"duplicate_request", "mlx5 rxe", K::kDuplicate},
        {"implied_nak_seq_err", "mlx5", K::kSequenceError},
        {"link_downed", "rxe", K::kLinkDown},
        {"local_ack_timeout_err", "mlx5", K::kRetransmission},
        {"np_cnp_sent", "mlx5", K::kCongestion},
        {"np_ecn_marked_roce_packets", "mlx5", K::kCongestion},
        {"out_of_buffer", "mlx5", K::kReceiverNotReady},
        {"out_of_seq_request", "rxe", K::kSequenceError},
        {"out_of_sequence", "mlx5", K::kSequenceError},
        {"packet_seq_err", "mlx5", K::kSequenceError},
        {"rcvd_pkts", "rxe", K::kTraffic},
        {"rcvd_rnr_err", "rxe", K::kReceiverNotReady},
        {"rcvd_seq_err", "rxe", K::kSequenceError},
        {"rdma_recvs", "rxe", K::kTraffic},
        {"rdma_sends", "rxe", K::kTraffic},
        {"req_cqe_error", "mlx5", K::kCompletionError},
        {"req_cqe_flush_error", "mlx5", K::kCompletionError},
        {"req_remote_access_errors", "mlx5", K::kCompletionError},
        {"req_remote_invalid_request", "mlx5", K::kCompletionError},
        {"req_rnr_retries_exceeded", "mlx5", K::kRetryExhausted},
        {"req_transport_retries_exceeded", "mlx5", K::kRetryExhausted},
        {"resp_cqe_error", "mlx5", K::kCompletionError},
        {"resp_cqe_flush_error", "mlx5", K::kCompletionError},
        {"resp_local_length_error", "mlx5", K::kCompletionError},
        {"resp_remote_access_errors", "mlx5", K::kCompletionError},
        {"retry_exceeded_err", "rxe", K::kRetryExhausted},
        {"retry_rnr_exceeded_err", "rxe", K::kRetryExhausted},
        {"rnr_nak_retry_err", "mlx5", K::kReceiverNotReady},
        {"roce_adp_retrans", "mlx5", K::kRetransmission},
        {"roce_adp_retrans_to", "mlx5", K::kRetransmission},
        {"roce_slow_restart", "mlx5", K::kRetransmission},
        {"rp_cnp_handled", "mlx5", K::kCongestion},
        {"rp_cnp_ignored", "mlx5", K::kCongestion},
        {"rx_atomic_requests", "mlx5", K::kTraffic},
        {"rx_dct_connect", "mlx5", K::kTraffic},
        {"rx_read_requests", "mlx5", K::kTraffic},
        {"rx_write_requests", "mlx5", K::kTraffic},
        {"send_err", "rxe", K::kSendFailure},
        {"send_rnr_err", "rxe", K::kReceiverNotReady},
        {"sent_pkts", "rxe", K::kTraffic},
    };
    std::sort(counters.begin(), counters.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return counters;
  }();
  return table;
}

const TransportCounter* find_transport_counter(std::string_view name) {
  const auto& table = transport_counters();
  auto found =
      std::lower_bound(table.begin(), table.end(), name,
                       [](const TransportCounter& c, std::string_view n) { return c.name < n; });
  return found != table.end() && found->name == name ? &*found : nullptr;
}

std::map<std::string, std::uint64_t> default_transport_limits() { return {{"link_downed", 10}}; }

}  // namespace ibkit
