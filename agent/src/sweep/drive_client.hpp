#pragma once

#include <optional>
#include <string>
#include <vector>

#include "control/auth.hpp"
#include "model/pair_report.hpp"
#include "schedule/hosts.hpp"
#include "sweep/drive_request.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// How far a drive got, so the coordinator can tell a dead node from a failing link.
enum class DriveStage {
  kUnreachable,  // A's agent could not be reached or authenticated
  kRefused,      // A answered with an error (busy, a field out of bounds, an older agent)
  kTimedOut,     // A took the drive but no result came before the deadline
  kFinished,     // A sent its pair report (whose tests may still have failed)
};

struct DriveAttempt {
  DriveStage stage = DriveStage::kUnreachable;
  std::string error;                 // why, for anything but kFinished
  std::optional<PairReport> report;  // kFinished
  bool peer_answered = true;         // kFinished: whether B's agent answered A
};

// Asks node A's `ibkit serve` to run `drive` against its peer. Reaching and authenticating A is
// bounded by `connect_timeout_s` (and `deadline`), the whole drive by `deadline`. Never throws.
DriveAttempt drive_pair(const SweepHost& a, const DriveRequest& drive,
                        const std::optional<SharedKey>& key, double connect_timeout_s,
                        const Deadline& deadline);

// What a node's `ibkit serve` says of itself before a sweep's first round.
struct NodeAnswer {
  std::vector<std::string> rails;   // its rails (verbs/rails.hpp), by name in rail order
  std::optional<double> session_s;  // how long a session it gives (--session-timeout); older
                                    // agents do not say
};

// Asks a node's `ibkit serve` for its rails and session length, by `deadline`; fails with why
// it did not answer, or with the bad answer it gave.
Expected<NodeAnswer> ask_node(const SweepHost& host, const std::optional<SharedKey>& key,
                              const Deadline& deadline);

}  // namespace ibkit
