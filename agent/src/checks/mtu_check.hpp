#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// port.mtu: each Active fabric port's active MTU is [expect].active_mtu. Skipped (with the MTU
// seen) when no MTU is expected; failed when one is expected and the port's could not be read:
// an MTU nobody read is never a pass.
void check_port_mtus(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
