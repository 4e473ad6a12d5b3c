#include "config/error_rate_limits.hpp"

#include "util/text.hpp"

namespace ibkit {
namespace {

// Defaults that need no data rate. NVIDIA's NVSentinel treats any rise of the last two as fatal;
// it calls more than 5 link_error_recovery a minute degraded. A retrain stalls the link for
// milliseconds, so more than one an hour fails.
struct FixedDefault {
  std::string_view counter;
  double per_hour;
  std::optional<double> per_second;
};
constexpr FixedDefault kFixedDefaults[] = {
    {"link_error_recovery", 1, 5.0 / 60},
    {"local_link_integrity_errors", 0, std::nullopt},
    {"excessive_buffer_overrun_errors", 0, std::nullopt},
};

// symbol_error and port_rcv_errors get the bit error rate's budget per hour (a bit error
// spoils at most one packet) and NVSentinel's degraded level of 10 a second.
constexpr double kBerCountersPerSecond = 10;

}  // namespace

// 10^9 bit/s x 10^-12 is one error in 1000 s; 3600 / 1000 keeps 4X HDR's 720 exact.
double ber_errors_per_hour(double data_gbps) { return data_gbps * 3600 / 1000; }

CounterRateLimit error_rate_limit(const ErrorRateLimits& configured, std::string_view counter,
                                  std::optional<double> data_gbps) {
  CounterRateLimit limit;
  bool fixed = false;
  for (const auto& entry : kFixedDefaults) {
    if (entry.counter != counter) continue;
    fixed = true;
    limit.per_hour = entry.per_hour;
    limit.per_second = entry.per_second;
    limit.per_hour_source = "default";
  }
  if (!fixed && data_gbps) {
    limit.per_hour = ber_errors_per_hour(*data_gbps);
    limit.per_second = kBerCountersPerSecond;
    limit.per_hour_source = "BER 1e-12 at " + format_number(*data_gbps) + " Gb/s";
  }
  const std::string name(counter);
  if (auto hour = configured.per_hour.find(name); hour != configured.per_hour.end()) {
    limit.per_hour = hour->second;
    limit.per_hour_source = "[limits] " + name + "_per_hour";
  }
  if (auto second = configured.per_second.find(name); second != configured.per_second.end())
    limit.per_second = second->second;
  return limit;
}

}  // namespace ibkit
