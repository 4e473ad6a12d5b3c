#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ibkit {

using CounterValues = std::map<std::string, std::uint64_t>;

// The port's counters and data rate as sysfs shows them on this machine (empty/nullopt for a
// soft device without counters).
CounterValues read_port_counters(const std::string& device, int port);
std::optional<double> read_port_data_gbps(const std::string& device, int port);

// after - before for every counter in both; a counter that went backwards (reset) counts from 0.
std::map<std::string, std::int64_t> counter_deltas(const CounterValues& before,
                                                   const CounterValues& after);

}  // namespace ibkit
