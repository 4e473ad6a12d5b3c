#include "util/state_turn.hpp"

#include "util/deadline.hpp"
#include "util/text.hpp"

namespace ibkit {

StateTurn take_state_turn(const std::string& state_path, double wait_seconds,
                          const std::string& without_it) {
  const std::string path = state_path + ".lock";
  LockHolder holder;
  auto lock = wait_for_lock(path, Deadline::after_seconds(wait_seconds), holder,
                            "move it away: ibkit keeps its lock for --state FILE in FILE.lock");
  if (!lock) return {std::nullopt, lock.error().message};
  if (!*lock) {
    return {std::nullopt,
            path + ": another run (pid " + (holder.pid.empty() ? "unknown" : holder.pid) +
                ") held it for all of " + format_number(wait_seconds, 2) + " s; this run " +
                without_it + " and left " + state_path + " as it was"};
  }
  return {std::move(*lock), ""};
}

}  // namespace ibkit
