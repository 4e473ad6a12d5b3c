#include "config/config.hpp"

namespace ibkit {

CounterLimits default_counter_limits() {
  return {
      {"symbol_error", 10},
      {"link_error_recovery", 10},
      {"link_downed", 10},
      {"port_rcv_errors", 10},
      {"port_rcv_remote_physical_errors", 10},
      {"port_xmit_discards", 100},
      {"local_link_integrity_errors", 10},
      {"excessive_buffer_overrun_errors", 10},
      {"port_rcv_constraint_errors", 10},
      {"port_xmit_constraint_errors", 10},
      {"VL15_dropped", 100},
  };
}

}  // namespace ibkit
