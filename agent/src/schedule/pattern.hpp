#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/pair_routes.hpp"
#include "schedule/hosts.hpp"
#include "schedule/rounds.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// A --pattern: "all-pairs", "ring", "random:K", "ring+random:K", "pairs:FILE", "topo:FILE" or
// "topo-blame:FILE" (a topology `ibkit fabric --save-topology` wrote: see topology_schedule and
// blame_schedule), made into a schedule for `hosts`. Fails naming --pattern, or the file and its
// line. For topo:FILE and topo-blame:FILE, `topology` (when given) gets what the rounds cover
// ("cover 8192 of 8192 switch-to-switch links") and the links each pair's routes cross. Building
// a schedule from a topology stops with an error when `deadline` passes (the sweep's --deadline
// counts it).
struct PatternTopology {
  std::string coverage;
  PairRoutes routes;
};
Expected<Schedule> schedule_for_pattern(const std::string& pattern,
                                        const std::vector<SweepHost>& hosts, std::uint64_t seed,
                                        PatternTopology* topology = nullptr,
                                        const std::optional<Deadline>& deadline = std::nullopt);

}  // namespace ibkit
