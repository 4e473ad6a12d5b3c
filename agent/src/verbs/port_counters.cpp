#include "verbs/port_counters.hpp"

#include "config/transport_counters.hpp"
#include "sysfs/hca.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {
namespace {

std::optional<Port> find_port(const std::string& device, int port) {
  auto root = SysfsRoot::open("/");
  if (!root) return std::nullopt;
  return read_port_without_netdevs(*root, device, port);
}

}  // namespace

CounterValues read_port_counters(const std::string& device, int port) {
  auto found = find_port(device, port);
  if (!found) return {};
  CounterValues values = found->counters;
  for (const auto& [name, count] : found->transport.values)
    values[std::string(kTransportCounterPrefix) + name] = count;
  return values;
}

std::optional<double> read_port_data_gbps(const std::string& device, int port) {
  auto found = find_port(device, port);
  if (!found || !found->rate) return std::nullopt;
  return found->rate->data_gbps;
}

std::int64_t counter_delta(std::uint64_t before, std::uint64_t after) {
  if (after >= before) return static_cast<std::int64_t>(after - before);
  // Backwards: a 32-bit counter (mlx5 keeps its queue counters in 32 bits) that wrapped, when
  // the wrap explains a small rise; else a reset, counted from 0.
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (before < k32 && k32 - before + after < (k32 >> 1))
    return static_cast<std::int64_t>(k32 - before + after);
  return static_cast<std::int64_t>(after);
}

std::map<std::string, std::int64_t> counter_deltas(const CounterValues& before,
                                                   const CounterValues& after) {
  std::map<std::string, std::int64_t> deltas;
  for (const auto& [name, value] : after) {
    auto earlier = before.find(name);
    if (earlier != before.end()) deltas[name] = counter_delta(earlier->second, value);
  }
  return deltas;
}

}  // namespace ibkit
