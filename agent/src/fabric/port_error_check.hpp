#pragma once

#include "config/config.hpp"
#include "fabric/fabric_model.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// fabric.counters: every port discovery read the error counters of (switch ports included)
// within `limits`, the [limits] `ibkit check` judges a node's own ports by. One failing result
// per port over a limit, naming the port and the far end of its link, the counters over (and
// those that stopped counting at their maximum), and the perfquery that clears them; one
// warning naming the ports whose counters could not be read and why; one passing result
// counting the rest.
CheckResults check_port_errors(const Subnet& fabric, const CounterLimits& limits);

}  // namespace ibkit
