#include "sweep/pair_attempt.hpp"

#include <algorithm>
#include <utility>

#include "measure/verbs_measurement.hpp"
#include "model/pair_report.hpp"
#include "model/sweep_report.hpp"
#include "pair/pair_ends.hpp"
#include "pair/pair_verdict.hpp"

namespace ibkit {
namespace {

// An error counter that rose, or a test that stopped (judge_pair's subject "test"), is a failure;
// the rest (figures short of a threshold, transport counters that say the path loses packets while
// it still carries them) make the pair slow.
bool is_failure(const CheckResult& result) {
  return result.id == "pair.counters" || result.subject == "test";
}

std::string shortfall(const CheckResult& result) {
  return result.id + " " + result.subject + ": " + result.observed +
         (result.expected.empty() ? "" : " (expected " + result.expected + ")");
}

// Whether the thresholds hold any figure the report measured (judge_pair compares each figure
// with its threshold only when both exist).
bool held_to_thresholds(const PairReport& report, const Thresholds& thresholds) {
  for (const auto& outcome : report.outcomes) {
    if (outcome.verbs) {
      if (thresholds.max_latency_us && smallest_latency_size(*outcome.verbs) != nullptr)
        return true;
      const bool bandwidth_floor =
          thresholds.min_bandwidth_gbps ||
          (thresholds.min_bandwidth_fraction && outcome.verbs->port_data_gbps);
      if (bandwidth_floor && largest_bandwidth_size(*outcome.verbs) != nullptr) return true;
    }
    if (outcome.tcp && thresholds.min_tcp_gbps) return true;
  }
  return false;
}

// A refused connection is a node where no ibkit serve listens, not a node that is down.
std::string nothing_listens(const std::string& error) {
  return error.find("Connection refused") == std::string::npos ? ""
                                                               : ": no ibkit serve listens there";
}

void judge_report(PairAttempt& attempt, const SweepHost& a, const SweepHost& b,
                  const Thresholds& thresholds) {
  PairReport& report = *attempt.report;
  report.results = judge_pair(report.outcomes, thresholds, {a.name, b.name});
  // A warning when the ends differ (MTU, rate): it never makes the pair bad on its own.
  add_pair_ends_result(report.results, report.outcomes, a.name, b.name);
  for (const auto& outcome : report.outcomes) {
    if (outcome.error.empty()) continue;
    attempt.status = PairStatus::kFailed;
    attempt.reason = (attempt.b_silent ? "node " + b.name + " did not answer " + a.name + ": "
                                       : outcome.test + ": ") +
                     outcome.error + (attempt.b_silent ? nothing_listens(outcome.error) : "");
    // Lost packets counted before it stopped say why a test stalled.
    for (const auto& result : report.results) {
      if (result.id == "pair.transport" && result.status == Status::kFail)
        attempt.reason += "; " + result.observed;
    }
    return;
  }
  const CheckResult* slow = nullptr;
  for (const auto& result : report.results) {
    if (result.status != Status::kFail) continue;
    if (is_failure(result)) {
      attempt.status = PairStatus::kFailed;
      attempt.reason = shortfall(result);
      return;
    }
    if (slow == nullptr) slow = &result;
  }
  attempt.status = slow == nullptr ? PairStatus::kPass : PairStatus::kSlow;
  if (slow != nullptr) attempt.reason = shortfall(*slow);
  attempt.threshold_rule = slow != nullptr || held_to_thresholds(report, thresholds);
}

}  // namespace

PairAttempt judge_drive(const SweepHost& a, const SweepHost& b, DriveAttempt drive,
                        const Thresholds& thresholds) {
  PairAttempt attempt;
  switch (drive.stage) {
    case DriveStage::kUnreachable:
      attempt.status = PairStatus::kUnreachable;
      attempt.a_silent = true;
      attempt.reason = "node " + a.name + " did not answer the sweep: " + drive.error +
                       nothing_listens(drive.error);
      break;
    case DriveStage::kTimedOut:
      attempt.status = PairStatus::kTimedOut;
      attempt.a_silent = true;
      attempt.reason = "node " + a.name + " sent no result in time: " + drive.error;
      break;
    case DriveStage::kRefused:
      attempt.status = PairStatus::kFailed;
      attempt.reason = "node " + a.name + " ended the drive: " + drive.error;
      break;
    case DriveStage::kFinished:
      attempt.report = std::move(drive.report);
      attempt.b_silent = !drive.peer_answered;
      judge_report(attempt, a, b, thresholds);
      break;
  }
  return attempt;
}

PairAttempt attempt_of(PairStatus status, std::string reason) {
  PairAttempt attempt;
  attempt.status = status;
  attempt.reason = std::move(reason);
  return attempt;
}

void leave_out(SweepPair& pair, const std::string& reason) {
  if (pair.attempts > 0) {
    pair.reason += "; retest " + reason;
    return;
  }
  pair.status = PairStatus::kNotRun;
  pair.reason = reason;
}

void record_attempt(SweepPair& pair, PairAttempt attempt, int attempt_number) {
  const std::string first = pair.attempts > 0 && pair.status != PairStatus::kPass
                                ? std::string(pair_status_name(pair.status)) + ": " + pair.reason
                                : "";
  pair.attempts = std::min(pair.attempts + 1, attempt_number);
  pair.status = attempt.status;
  pair.reason = std::move(attempt.reason);
  pair.seconds = attempt.seconds;
  pair.report = std::move(attempt.report);
  pair.rules = {true, attempt.threshold_rule, false};
  if (!first.empty() && pair.status == PairStatus::kPass) {
    pair.reason = "passed on retest; first attempt " + first;
  }
}

}  // namespace ibkit
