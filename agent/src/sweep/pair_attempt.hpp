#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"
#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"
#include "sweep/drive_client.hpp"

namespace ibkit {

// One attempt at one pair, judged: what the coordinator records and how it decides that a node
// has gone silent.
struct PairAttempt {
  PairStatus status = PairStatus::kNotRun;
  std::string reason;  // one line for anything but a pass
  std::optional<PairReport> report;
  bool a_silent = false;  // A's agent did not answer the coordinator (unreachable, timed out)
  bool b_silent = false;  // B's agent did not answer A
  double seconds = 0;
  // An absolute threshold decided the status: a slow pair's shortfall, or a pass held to one.
  bool threshold_rule = false;
};

// An attempt that ended as `status` for `reason`, with nothing measured.
PairAttempt attempt_of(PairStatus status, std::string reason);

// Leaves `pair` out for `reason` ("not run: ..."). A pair with no attempt yet becomes not_run; a
// retest keeps what the first attempt measured and only notes why it was not retested.
void leave_out(SweepPair& pair, const std::string& reason);

// Records `attempt`, the pair's `attempt_number` (1 for the rounds, 2 for a retest), in `pair`:
// its status, reason, time and report. A pass on retest says what the first attempt was. A pair
// first left out for a silent node and run with the retests has had one attempt.
void record_attempt(SweepPair& pair, PairAttempt attempt, int attempt_number);

// Judges a drive with the coordinator's thresholds: a test that did not run or a counter that
// rose is "failed", a figure short of a threshold "slow", A out of reach "unreachable", no
// result in time "timed_out". The reason names the node or test at fault. threshold_rule says
// whether a configured threshold decided a pass or slow status.
PairAttempt judge_drive(const SweepHost& a, const SweepHost& b, DriveAttempt drive,
                        const Thresholds& thresholds);

}  // namespace ibkit
