#pragma once

#include <cstddef>

#include "util/expected.hpp"
#include "util/process/descriptor_room.hpp"

namespace ibkit {

// The descriptors a launched sweep of `nodes` holds at its busiest: each node's server launcher
// (its stdin and stderr pipes) and the sweep's connection to it, all at once for the whole
// sweep, and some aside (the rails queries, the name service, the report's files). The
// checks that run before the servers start hold fewer (checks_at_once).
std::size_t launch_descriptors(std::size_t nodes);

// Done when a launched sweep of `nodes` fits in `room`; otherwise an error (environment: exit
// 3) naming both figures, how many nodes would fit, and how to raise the limit. Asked before
// any node is touched, so running out of descriptors is never taken for the nodes' failure.
Expected<Done> check_launch_room(std::size_t nodes, const DescriptorRoom& room);

// How many nodes' checks may run at once in `room`: 64, or fewer when each one's launcher (two
// pipes, four descriptors while it starts) would not fit beside what the sweep keeps aside;
// at least 1.
std::size_t checks_at_once(const DescriptorRoom& room);

}  // namespace ibkit
