#include "verbs/port_counters.hpp"

#include "sysfs/hca.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit {
namespace {

std::optional<Port> find_port(const std::string& device, int port) {
  auto root = SysfsRoot::open("/");
  if (!root) return std::nullopt;
  for (auto& hca : scan_hcas(*root)) {
    if (hca.name != device) continue;
    for (auto& candidate : hca.ports) {
      if (candidate.number == port) return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace

CounterValues read_port_counters(const std::string& device, int port) {
  auto found = find_port(device, port);
  return found ? found->counters : CounterValues{};
}

std::optional<double> read_port_data_gbps(const std::string& device, int port) {
  auto found = find_port(device, port);
  if (!found || !found->rate) return std::nullopt;
  return found->rate->data_gbps;
}

std::map<std::string, std::int64_t> counter_deltas(const CounterValues& before,
                                                   const CounterValues& after) {
  std::map<std::string, std::int64_t> deltas;
  for (const auto& [name, value] : after) {
    auto earlier = before.find(name);
    std::uint64_t base = earlier == before.end() || earlier->second > value ? 0 : earlier->second;
    deltas[name] = static_cast<std::int64_t>(value - base);
  }
  return deltas;
}

}  // namespace ibkit
