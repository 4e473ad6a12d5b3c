#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checks/check_result.hpp"
#include "config/config.hpp"
#include "tcp/tcp_test.hpp"
#include "verbs/verbs_measurement.hpp"

namespace ibkit {

inline constexpr const char* kPairSchema = "ibkit.pair/1";

// One test against the peer: what it measured (possibly only part), or why it could not run.
struct PairOutcome {
  std::string test;  // "lat", "bw", "tcp"
  std::optional<VerbsMeasurement> verbs;
  std::optional<TcpResult> tcp;
  std::string error;  // "" when the test ran to the end
};

struct PairReport {
  std::string host;
  std::string peer;
  std::string generated_at;
  std::string config_source;
  std::vector<PairOutcome> outcomes;
  CheckResults results;  // the verdicts, from judge_pair
};

// Judges every outcome against the thresholds: pair.<test> for a test that failed to run,
// pair.latency (typical latency of the smallest size), pair.bandwidth (largest size, absolute
// and as a fraction of the port's data rate), pair.counters (error counters on both ends),
// pair.tcp. Without a threshold a measurement that completed passes with its figure.
CheckResults judge_pair(const std::vector<PairOutcome>& outcomes, const Thresholds& thresholds);

// perftest-style tables per test, then the verdict table.
std::string render_pair_text(const PairReport& report, bool colour);
// {"schema": "ibkit.pair/1", "verdict": ..., "tests": [...], "results": [...]}
std::string render_pair_json(const PairReport& report);
std::string render_pair_junit(const PairReport& report);

}  // namespace ibkit
