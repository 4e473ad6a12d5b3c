#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ibkit {

using CounterValues = std::map<std::string, std::uint64_t>;

// The port's counters and data rate as sysfs shows them on this machine (empty/nullopt for a
// device without counters): counters/ by name, hw_counters/ as "hw_counters/<name>".
CounterValues read_port_counters(const std::string& device, int port);
std::optional<double> read_port_data_gbps(const std::string& device, int port);

// How much a counter rose from `before` to `after`. One that went backwards wrapped at 32 bits when
// that explains a rise below 2^31 (mlx5's queue counters are 32 bits wide), else was reset and
// counts from 0.
std::int64_t counter_delta(std::uint64_t before, std::uint64_t after);

// counter_delta for every counter in both; one missing from `before` has no delta (its count
// since boot is not a rise during the test).
std::map<std::string, std::int64_t> counter_deltas(const CounterValues& before,
                                                   const CounterValues& after);

}  // namespace ibkit
