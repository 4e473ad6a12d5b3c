#pragma once

#include <optional>
#include <string>
#include <vector>

#include "measure/tcp_result.hpp"
#include "measure/verbs_measurement.hpp"
#include "model/check_result.hpp"
#include "util/build_version.hpp"

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
  CheckResults results;  // the verdicts, from judge_pair (pair/pair_verdict.hpp)
  std::string agent_version = build_version();  // the writer's; "" in reports older than it
};

}  // namespace ibkit
