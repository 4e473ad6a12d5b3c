#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ibkit {

// The switch-to-switch links each pair's traffic crosses, in either direction, by name
// ("leaf-1 (0x...) port 13 <-> spine-2 (0x...) port 1"), sorted; keyed by the pair's node
// names in either order (route_key). Known only for a sweep scheduled from the topology.
using PairRoutes = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

std::pair<std::string, std::string> route_key(const std::string& a, const std::string& b);

}  // namespace ibkit
