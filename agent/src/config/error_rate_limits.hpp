#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ibkit {

// The error counters whose rise between two checks (ibkit check --state) is judged as a rate.
inline constexpr std::string_view kRateCounters[] = {
    "symbol_error",
    "link_error_recovery",
    "port_rcv_errors",
    "local_link_integrity_errors",
    "excessive_buffer_overrun_errors",
};

// [limits] <counter>_per_hour and <counter>_per_second as configured; a counter not named keeps
// its default (error_rate_limit).
struct ErrorRateLimits {
  std::map<std::string, double> per_hour;
  std::map<std::string, double> per_second;
};

// The limits one counter of one port is judged by. `per_hour` above: the port fails; only
// `per_second` above: degraded. nullopt: that limit does not apply.
struct CounterRateLimit {
  std::optional<double> per_hour;
  std::optional<double> per_second;
  std::string per_hour_source;  // "BER 1e-12 at 200 Gb/s", "[limits] symbol_error_per_hour"...
};

// Errors in an hour at the IBTA bit error rate on a link carrying `data_gbps`:
// data_gbps x 10^9 bit/s x 3600 s x 10^-12 = data_gbps x 3.6 (4X HDR, 200 Gb/s: 720).
double ber_errors_per_hour(double data_gbps);

// The limits of `counter` on a port carrying `data_gbps` (nullopt: the rate is unknown, or the
// link layer is Ethernet, where the IBTA's bit error rate does not apply). Configured limits
// win; without one the defaults of docs/verdicts.md apply, and a default that needs the data
// rate is left out (nullopt) when there is none.
CounterRateLimit error_rate_limit(const ErrorRateLimits& configured, std::string_view counter,
                                  std::optional<double> data_gbps);

}  // namespace ibkit
