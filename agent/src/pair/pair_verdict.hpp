#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/check_result.hpp"
#include "model/pair_report.hpp"

namespace ibkit {

// How results name the two ends of a test: the node that ran it and its peer.
struct PairEndNames {
  std::string local = "local";
  std::string peer = "peer";
};

// Judges every outcome against the thresholds: pair.<test> for a test that failed to run,
// pair.latency (typical latency of the smallest size), pair.bandwidth (largest size, absolute
// and as a fraction of the port's data rate), pair.counters (error counters on both ends),
// pair.transport (transport counters that mean loss, on both ends, where the drivers keep them),
// pair.tcp. Without a threshold a measurement that completed passes with its figure.
CheckResults judge_pair(const std::vector<PairOutcome>& outcomes, const Thresholds& thresholds,
                        const PairEndNames& ends = {});

}  // namespace ibkit
