#include "model/error_counters.hpp"

namespace ibkit {

const std::vector<ErrorCounter>& error_counters() {
  static const std::vector<ErrorCounter> counters{
      {"symbol_error", 16, CounterKind::kWire},
      {"link_error_recovery", 8, CounterKind::kWire},
      {"link_downed", 8, CounterKind::kLinkDown},
      {"port_rcv_errors", 16, CounterKind::kWire},
      {"port_rcv_remote_physical_errors", 16, CounterKind::kMarkedUpstream},
      {"port_rcv_switch_relay_errors", 16, CounterKind::kDrop},
      {"port_xmit_discards", 16, CounterKind::kDrop},
      {"port_xmit_constraint_errors", 8, CounterKind::kDrop},
      {"port_rcv_constraint_errors", 8, CounterKind::kDrop},
      {"local_link_integrity_errors", 4, CounterKind::kWire},
      {"excessive_buffer_overrun_errors", 4, CounterKind::kWire},
      {"VL15_dropped", 16, CounterKind::kDrop},
  };
  return counters;
}

const ErrorCounter* error_counter_named(std::string_view name) {
  for (const auto& counter : error_counters())
    if (counter.name == name) return &counter;
  return nullptr;
}

std::uint64_t counter_maximum(std::string_view name) {
  const ErrorCounter* counter = error_counter_named(name);
  return counter == nullptr ? 0 : (std::uint64_t{1} << counter->bits) - 1;
}

bool counter_saturated(std::string_view name, std::uint64_t value, bool extended) {
  if (error_counter_named(name) == nullptr) return false;
  return value == (extended ? ~std::uint64_t{0} : counter_maximum(name));
}

}  // namespace ibkit
