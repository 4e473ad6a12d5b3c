#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// fabric.ports: enough Active ports of the expected link layer (and a hint when a VPI port
// runs the wrong one); port.link_layer for ports that are not on the fabric.
void check_fabric(const CheckContext& context, CheckResults& results);

// port.state: each required fabric port Active with physical state LinkUp; a port that is not
// names the likely cause (no cable, no subnet manager, SM not activating).
void check_port_states(const CheckContext& context, CheckResults& results);

// port.rate: each Active fabric port's data rate (width x speed after encoding) at least
// [expect].min_rate_gbps.
void check_port_rates(const CheckContext& context, CheckResults& results);

// port.lid: InfiniBand ports with link have a LID and an SM LID (a subnet manager swept them).
void check_port_lids(const CheckContext& context, CheckResults& results);

// port.counters: error counters of each fabric port within [limits].
void check_port_counters(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
