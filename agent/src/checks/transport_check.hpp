#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// port.transport: the transport counters of each fabric port (ports/N/hw_counters) within
// [limits]. The counts since the driver loaded of retransmissions, sequence errors and other
// trouble are shown whether judged or not;
// a port whose driver keeps none is skipped with a reason.
void check_transport_counters(const CheckContext& context, CheckResults& results);

}  // namespace ibkit
