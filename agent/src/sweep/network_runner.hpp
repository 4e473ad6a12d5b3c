#pragma once

#include <optional>

#include "config/config.hpp"
#include "control/auth.hpp"
#include "sweep/coordinator.hpp"

namespace ibkit {

// The runner over the network: drives A's `ibkit serve` (drive_pair) and judges with
// `thresholds`. A pair whose tests' --duration no longer fits the time left is not_run, not
// driven.
PairRunner network_runner(const SweepSettings& settings, const std::optional<SharedKey>& key,
                          const Thresholds& thresholds);

}  // namespace ibkit
