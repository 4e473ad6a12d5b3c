#include "schedule/scheduled_pairs.hpp"

#include <utility>

namespace ibkit {

std::vector<std::vector<std::size_t>> add_scheduled_pairs(SweepReport& report,
                                                          const std::vector<SweepHost>& hosts,
                                                          const Schedule& schedule, int rails) {
  std::vector<std::vector<std::size_t>> steps;
  for (std::size_t round = 0; round < schedule.size(); ++round) {
    for (int rail = 0; rail < rails; ++rail) {
      std::vector<std::size_t> step;
      for (const auto& pair : schedule[round]) {
        step.push_back(report.pairs.size());
        SweepPair entry;
        entry.a = hosts[static_cast<std::size_t>(pair.a)].name;
        entry.b = hosts[static_cast<std::size_t>(pair.b)].name;
        entry.rail = rail;
        entry.round = static_cast<int>(round) + 1;
        report.pairs.push_back(std::move(entry));
      }
      steps.push_back(std::move(step));
    }
  }
  return steps;
}

}  // namespace ibkit
