#include "model/counter_snapshot.hpp"

namespace ibkit {

CounterSnapshot take_counter_snapshot(const std::vector<Hca>& hcas, std::string host,
                                      std::string boot_id, std::int64_t taken_at) {
  CounterSnapshot snapshot{std::move(host), std::move(boot_id), taken_at, {}};
  for (const auto& hca : hcas) {
    for (const auto& port : hca.ports) {
      if (!port.counters.empty()) snapshot.ports[hca.subject(port.number)] = port.counters;
    }
  }
  return snapshot;
}

}  // namespace ibkit
