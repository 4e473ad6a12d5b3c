#include "fabric/error_counters.hpp"

namespace ibkit {

const std::vector<ErrorCounter>& error_counters() {
  static const std::vector<ErrorCounter> counters{
      {"symbol_error", 16},
      {"link_error_recovery", 8},
      {"link_downed", 8},
      {"port_rcv_errors", 16},
      {"port_rcv_remote_physical_errors", 16},
      {"port_rcv_switch_relay_errors", 16},
      {"port_xmit_discards", 16},
      {"port_xmit_constraint_errors", 8},
      {"port_rcv_constraint_errors", 8},
      {"local_link_integrity_errors", 4},
      {"excessive_buffer_overrun_errors", 4},
      {"VL15_dropped", 16},
  };
  return counters;
}

bool counter_saturated(std::string_view name, std::uint64_t value) {
  for (const auto& counter : error_counters())
    if (counter.name == name) return value == (std::uint64_t{1} << counter.bits) - 1;
  return false;
}

}  // namespace ibkit
