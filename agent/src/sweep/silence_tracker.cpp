#include "sweep/silence_tracker.hpp"

#include <algorithm>

namespace ibkit {

std::optional<std::string> SilenceTracker::note_step(const std::vector<PairSilence>& seen,
                                                     std::size_t pairs_run) {
  const auto unanswered =
      static_cast<std::size_t>(std::count_if(seen.begin(), seen.end(), [](const PairSilence& pair) {
        return pair.a_silent || pair.b_silent;
      }));
  if (unanswered >= kFabricEventPairs && unanswered * 2 > pairs_run) {
    return "; " + std::to_string(unanswered) + " of " + std::to_string(pairs_run) +
           " pairs of this step went unanswered at once: a fabric-wide event, held against no "
           "node";
  }
  for (const auto& pair : seen) {
    note(pair.a, pair.a_silent, !pair.a_silent);
    note(pair.b, pair.b_silent, pair.b_answered);
  }
  return std::nullopt;
}

void SilenceTracker::forgive_all() {
  for (std::size_t node = 0; node < silent_.size(); ++node) {
    last_chance_[node] = silenced(node);
    silent_[node] = 0;
  }
}

void SilenceTracker::note(std::size_t node, bool silent, bool answered) {
  int& count = silent_[node];
  if (silent) {
    ++count;
  } else if (answered) {
    count = 0;
    last_chance_[node] = false;
  }
}

}  // namespace ibkit
