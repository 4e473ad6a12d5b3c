#pragma once

#include "model/pair_routes.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// Finds the switch-to-switch link to blame instead of nodes: at least two bad pairs that no
// node was blamed for, on rail 0 (the routes are those of the hosts' first ports), all of
// whose routes cross one link (or the same few), with no node in all of them, and at least
// half of the pairs whose routes cross it bad. Fills report.blamed_links and prefixes those
// pairs' reasons with "blamed on link LINK: ". Runs after blame_nodes; does nothing without
// routes or when any bad pair's route is unknown.
void blame_links(SweepReport& report, const PairRoutes& routes);

}  // namespace ibkit
