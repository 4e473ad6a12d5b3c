#pragma once

#include <string>
#include <vector>

#include "model/sweep_report.hpp"

namespace ibkit {

// Whether a pair's status says something is wrong (not a pass, and it ran).
bool pair_bad(const SweepPair& pair);

// Whether a pair's reason already names what it is blamed on ("blamed on NODE: ", "blamed on
// link LINK: "), and that reason with `cause` ("n5", "link ...") named first unless it does.
bool pair_blamed(const SweepPair& pair);
void blame_pair(SweepPair& pair, const std::string& cause);
// Takes back what blame_pair(pair, cause) put before the reason.
void unblame_pair(SweepPair& pair, const std::string& cause);

// Finds the nodes to blame instead of their links: a node with at least two bad pairs, every
// pair of which from its first bad one on (in schedule order) is bad or was skipped because the
// node stopped answering. That covers a node dead from the start and one that died mid-sweep,
// but not the partner that met it once. Fills report.blamed and prefixes each blamed node's
// bad pairs' reasons with "blamed on NODE: ". When the fleet rule found ways of only one
// direction short in the node's slow pairs, the reason says so: "(2 slow, every way found short
// is one NODE sends)", or "receives".
void blame_nodes(SweepReport& report);

}  // namespace ibkit
