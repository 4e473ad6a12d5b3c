#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "checks/check_context.hpp"
#include "config/error_rate_limits.hpp"
#include "model/check_result.hpp"
#include "schema/counter_baseline.hpp"

namespace ibkit {

using PortCounters = std::map<std::string, std::uint64_t>;

// The data rate the IBTA's bit error rate budget applies to: an InfiniBand port's, when its
// rate could be read; nullopt on an Ethernet link layer (RoCE) or an unreadable rate.
std::optional<double> infiniband_data_gbps(const Port& port);

// What port.error_rate says of one port: its result, and its rate history with this check's
// verdict added (what the state file keeps for the next check).
struct PortRateJudgement {
  CheckResult result;
  std::string history;
};

// Judges each of kRateCounters' rise from `before` to `now` over `elapsed_seconds`: per hour
// (rise / max(elapsed, 1 h)) against the per-hour limit, above it fails; per second
// (rise / max(elapsed, 1 min)) against the per-second limit, above it only is degraded (warn). The
// limits are error_rate_limit(`limits`, counter, `data_gbps`); pass nullopt for `data_gbps` on an
// Ethernet link layer. A counter stopped at its maximum gives no rate and warns. `history` is
// the port's earlier verdicts (checks/rate_history.hpp): degraded or failed on 3 of the last 5
// checks, this one included, fails. The counters must not have gone back (first_counter_reset).
PortRateJudgement judge_error_rates(const std::string& subject, const PortCounters& before,
                                    const PortCounters& now, std::int64_t elapsed_seconds,
                                    std::optional<double> data_gbps, const ErrorRateLimits& limits,
                                    const std::string& history);

// port.error_rate: every fabric port's error counter rates since the previous check in the
// state file, one result a port; without a usable previous check one result says why. `history`
// holds the ports' rate histories as loaded (baseline.rate_history) and leaves with this check's
// verdicts added; a port whose counters were reset starts its history again.
void check_error_rates(const CheckContext& context, const CounterBaseline& baseline,
                       CheckResults& results, std::map<std::string, std::string>& history);

}  // namespace ibkit
