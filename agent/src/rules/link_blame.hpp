#pragma once

#include "model/pair_routes.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// Finds the switch-to-switch links to blame instead of nodes, one at a time, the link whose
// routes the most bad pairs not yet explained cross first: a link is blamed for the bad pairs
// crossing it (on rail 0: the routes are those of the hosts' first ports) when they are at
// least two, no node is in all of them, and at least half of the pairs whose routes cross it
// are bad; it is named with every other link all of those pairs cross (the same few). Those
// pairs may include a blamed node's, when every bad pair of that node crosses the link and was
// slow: on destination-routed trees every pair reaching a host comes down one cable, so a slow
// cable first looks like a slow receiver; the link then takes its pairs and the node is no
// longer blamed. Fills report.blamed_links and prefixes those pairs' reasons with "blamed on
// link LINK: ". Runs after blame_nodes; does nothing without routes or when a bad pair's route
// is unknown.
void blame_links(SweepReport& report, const PairRoutes& routes);

}  // namespace ibkit
