#pragma once

#include <cstddef>
#include <map>

#include "fabric/discovery_options.hpp"
#include "fabric/fabric_model.hpp"
#include "fabric/ib_libraries.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// Reads every switch's linear forwarding table into its SubnetNode::forwarding, as ibroute does:
// up to SwitchInfo's LinearFDBTop, 64 LIDs a query, by the directed route discovery took to the
// switch (so it works before the subnet manager has set up any LID route). A switch whose table
// cannot be read whole keeps none. Stops asking once `deadline` is within a second and two
// timeouts.
void read_forwarding_tables(const IbLibraries& ib, ibnd_fabric_t& discovered,
                            const std::map<const ibnd_node_t*, std::size_t>& index,
                            const DiscoveryOptions& options, const Deadline& deadline,
                            Subnet& fabric);

}  // namespace ibkit
