#pragma once

#include "checks/check_context.hpp"
#include "model/check_result.hpp"
#include "schema/counter_baseline.hpp"

namespace ibkit {

// port.flaps: how often each fabric port's link went down since the previous check
// (link_downed rises between the state file's snapshot and now), at most [limits] link_flaps;
// the other error counters that rose are named beside it. Without a usable previous snapshot
// (the first check, a reboot, a reset counter) the port is skipped, saying why.
void check_link_flaps(const CheckContext& context, const CounterBaseline& baseline,
                      CheckResults& results);

}  // namespace ibkit
