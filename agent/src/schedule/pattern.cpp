#include "schedule/pattern.hpp"

#include <algorithm>
#include <utility>

#include "schedule/blame_schedule.hpp"
#include "schedule/schedule.hpp"
#include "schedule/topology_schedule.hpp"
#include "util/text.hpp"

namespace ibkit {

Expected<Schedule> schedule_for_pattern(const std::string& pattern,
                                        const std::vector<SweepHost>& hosts, std::uint64_t seed,
                                        PatternTopology* topology,
                                        const std::optional<Deadline>& deadline) {
  const int n = static_cast<int>(hosts.size());
  if (pattern == "all-pairs") return all_pairs_schedule(n);
  if (pattern == "ring") return ring_schedule(n);
  for (const bool with_ring : {false, true}) {
    const std::string prefix = with_ring ? "ring+random:" : "random:";
    if (pattern.rfind(prefix, 0) != 0) continue;
    const int most = with_ring ? n - 3 : n - 1;
    auto k = parse_unsigned(pattern.substr(prefix.size()));
    if (!k && most >= 1) {
      return Error{"--pattern " + pattern + ": K is not a whole number; write " + prefix +
                   "K with K from 1 to " + std::to_string(most) + " (" + std::to_string(n) +
                   " nodes), e.g. " + prefix + "1"};
    }
    if (!k || *k > static_cast<std::uint64_t>(n) || most < 1) {
      return Error{"--pattern " + pattern + ": K must be 1.." + std::to_string(std::max(most, 1)) +
                   " for " + std::to_string(n) + " nodes" +
                   (most < 1 ? ": too few nodes; use all-pairs" : "")};
    }
    auto schedule = with_ring ? ring_and_random_schedule(n, static_cast<int>(*k), seed)
                              : random_schedule(n, static_cast<int>(*k), seed);
    if (!schedule) return Error{"--pattern " + schedule.error().message};
    return schedule;
  }
  if (pattern.rfind("pairs:", 0) == 0 && pattern.size() > 6) {
    return read_pairs_file(pattern.substr(6), hosts);
  }
  for (const bool for_blame : {false, true}) {
    const std::string prefix = for_blame ? "topo-blame:" : "topo:";
    if (pattern.rfind(prefix, 0) != 0 || pattern.size() == prefix.size()) continue;
    const std::string file = pattern.substr(prefix.size());
    auto topo = for_blame ? read_blame_schedule(file, hosts, deadline)
                          : read_topology_schedule(file, hosts, deadline);
    if (!topo) return Error{"--pattern " + pattern + ": " + topo.error().message};
    if (topology != nullptr) {
      topology->coverage = coverage_text(*topo);
      topology->routes = std::move(topo->routes);
    }
    return std::move(topo->schedule);
  }
  return Error{"--pattern " + pattern +
               ": expected all-pairs, ring, random:K, ring+random:K, pairs:FILE, topo:FILE or "
               "topo-blame:FILE"};
}

}  // namespace ibkit
