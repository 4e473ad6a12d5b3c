#pragma once

#include <cstddef>
#include <vector>

#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"
#include "schedule/schedule.hpp"

namespace ibkit {

// Appends the pairs of `schedule` on each of `rails` rails to report.pairs, not run yet, named
// by `hosts`: round by round, each round on rail 0, then 1, ... Returns the steps that run them,
// a round's pairs on one rail each, as indices into report.pairs.
std::vector<std::vector<std::size_t>> add_scheduled_pairs(SweepReport& report,
                                                          const std::vector<SweepHost>& hosts,
                                                          const Schedule& schedule, int rails);

}  // namespace ibkit
