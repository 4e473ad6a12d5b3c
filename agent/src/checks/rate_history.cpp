#include "checks/rate_history.hpp"

#include <algorithm>

namespace ibkit {

std::string add_rate_verdict(const std::string& history, Status verdict) {
  const char letter = verdict == Status::kFail ? 'f' : verdict == Status::kWarn ? 'd' : 'p';
  std::string next = history + letter;
  if (next.size() > kRateHistoryRuns) next.erase(0, next.size() - kRateHistoryRuns);
  return next;
}

std::size_t bad_rate_runs(const std::string& history) {
  return static_cast<std::size_t>(
      std::count_if(history.begin(), history.end(), [](char c) { return c == 'd' || c == 'f'; }));
}

}  // namespace ibkit
