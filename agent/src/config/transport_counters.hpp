#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// How a transport counter is named among a port's counters in a test's counter deltas:
// "hw_counters/<name>" beside the counters/ names.
inline constexpr std::string_view kTransportCounterPrefix = "hw_counters/";

// What a transport counter (ports/N/hw_counters/<name>) counts. Drivers name their counters
// differently; the table in transport_counters.cpp maps mlx5's and rxe's names to these.
enum class TransportKind {
  kRetransmission,    // this end resent packets: an ACK timed out or a NAK asked for them
  kSequenceError,     // a packet went missing on the way: a gap seen, or a NAK for one received
  kDuplicate,         // a request arrived twice: an ACK was lost, or a timeout was too short
  kRetryExhausted,    // a queue pair gave up after its last retry: its work failed
  kSendFailure,       // packets the device could not hand to the network
  kLinkDown,          // the link went down (rxe counts it here, not under counters/)
  kReceiverNotReady,  // RNR NAKs or drops for want of posted receives: the application, not the
                      // link
  kCompletionError,   // work completed in error (often a program's bad key or a flush at teardown)
  kCongestion,        // ECN marks and congestion notifications (RoCE)
  kTraffic,           // packets and requests moved
};

// Whether a kind says the transport was not well: resent packets, gaps, duplicates, given-up
// connections, send failures, link downs. ibkit check shows these when they are not zero.
bool transport_kind_is_trouble(TransportKind kind);

// Whether a kind counts packets that were lost or connections that broke: sequence errors (a
// gap in the packets), exhausted retries, send failures, link downs. A pair test judges these.
// Retransmissions and duplicates are not among them: a retransmit timer also fires when the
// ACK is only late, and on a busy host (the emulated lab: up to 64 retries and 774 duplicates in
// one healthy test, sequence errors at most 1) a healthy path makes them by the dozen.
bool transport_kind_means_loss(TransportKind kind);

// "retransmissions", "sequence errors", ...: how a message names a kind.
std::string_view transport_kind_name(TransportKind kind);

struct TransportCounter {
  std::string_view name;     // the file's name under hw_counters/
  std::string_view drivers;  // "mlx5", "rxe", "mlx5 rxe"
  TransportKind kind;
};

// Every transport counter ibkit knows, in name order.
const std::vector<TransportCounter>& transport_counters();

// The counter called `name`, or nullptr for one ibkit does not know (another driver's).
const TransportCounter* find_transport_counter(std::string_view name);

// [limits] for hw_counters/ when the configuration names none: link_downed alone, at the port
// counters' limit (rxe counts its link downs here). Every other kind is shown by ibkit check, not
// judged: the counts run from the driver's load and cannot be reset, a healthy RoCE fabric
// retransmits now and then, and one node that crashes exhausts the retries of every peer's queue
// pairs (a limit on those would fail the check on every survivor, and a Slurm health check would
// drain them all). The kinds that mean loss are judged per test by ibkit pair and sweep.
std::map<std::string, std::uint64_t> default_transport_limits();

}  // namespace ibkit
