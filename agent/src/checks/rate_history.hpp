#pragma once

#include <cstddef>
#include <string>

#include "model/check_result.hpp"

namespace ibkit {

// port.error_rate remembers a port's verdicts on its last kRateHistoryRuns judged checks; a port
// degraded or failed on kRateHistoryBadRuns of them fails, whatever this check's rates.
inline constexpr std::size_t kRateHistoryRuns = 5;
inline constexpr std::size_t kRateHistoryBadRuns = 3;

// `history` (oldest first) with this check's `verdict` appended ('p' pass, 'd' warn, 'f' fail),
// cut to the last kRateHistoryRuns letters.
std::string add_rate_verdict(const std::string& history, Status verdict);

// How many checks of `history` were degraded or failed.
std::size_t bad_rate_runs(const std::string& history);

}  // namespace ibkit
