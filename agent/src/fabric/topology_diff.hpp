#pragma once

#include <cstddef>

#include "fabric/fabric_model.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// At most this many failing results of one kind (missing nodes, new nodes, moved, missing and
// new cables); one more result counts the rest, so a re-cabled fabric is not 10,000 lines.
inline constexpr std::size_t kTopologyProblemsListed = 50;

// fabric.topology: the subnet discovered `now` against one `saved` earlier, as ibdiagnet -t
// compares with a topology file. Nodes are matched by node GUID (never by index; of a GUID
// two nodes share, the first counts) and a link is its two ends, each a node GUID and a port
// number. Fails once per problem:
//   a saved node not found now, naming a few of its saved links;
//   a node found now that was not saved;
//   a moved cable: a port whose link now leads elsewhere, with where it led and leads (one
//   result, not a missing cable plus a new one);
//   a missing cable: a saved link whose ports now have none, naming both ends;
//   a new cable: a link between two ports both free in the saved subnet.
// A cable to a missing or new node is named in that node's result, not on its own. Each end
// is named as the subnet that holds it names it. Adds one passing result counting the nodes
// and links found as saved (when there are any, or nothing failed). Pure: no I/O.
CheckResults check_topology(const Subnet& saved, const Subnet& now);

}  // namespace ibkit
