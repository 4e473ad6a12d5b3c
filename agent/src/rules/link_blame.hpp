#pragma once

#include "model/pair_routes.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// Finds the switch-to-switch links to blame instead of nodes, one at a time, the link crossed
// by the most bad pairs not yet explained first (routes are those of the hosts' first ports, so
// only rail 0 is judged). A link is blamed when at least two bad pairs cross it, some not yet
// explained by another link nor another node's, no node is in all of them, and at least half of
// the pairs whose routes cross it are bad; it is named with every other link all of those pairs
// cross (the same few). A blamed node's pairs may be the link's: when every bad pair of the node
// (two or more) crosses the link and was slow, and two bad pairs across it do not include the
// node. On destination-routed trees every pair reaching a host comes down one cable, so a slow
// cable first looks like a slow receiver; the link then takes its pairs and the node is no longer
// blamed. Last, a node blamed whose every bad pair is another blamed node's or crosses a blamed
// link is no longer blamed (several faults at once). Fills report.blamed_links and prefixes those
// pairs' reasons with "blamed on link LINK: ". Runs after blame_nodes; does nothing without
// routes or when a bad pair's route is unknown.
void blame_links(SweepReport& report, const PairRoutes& routes);

}  // namespace ibkit
