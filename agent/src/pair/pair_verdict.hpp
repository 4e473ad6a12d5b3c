#pragma once

#include <vector>

#include "config/config.hpp"
#include "model/check_result.hpp"
#include "model/pair_report.hpp"

namespace ibkit {

// Judges every outcome against the thresholds: pair.<test> for a test that failed to run,
// pair.latency (typical latency of the smallest size), pair.bandwidth (largest size, absolute
// and as a fraction of the port's data rate), pair.counters (error counters on both ends),
// pair.tcp. Without a threshold a measurement that completed passes with its figure.
CheckResults judge_pair(const std::vector<PairOutcome>& outcomes, const Thresholds& thresholds);

}  // namespace ibkit
