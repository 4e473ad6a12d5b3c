#include "fabric/counter_state.hpp"

#include <ctime>
#include <filesystem>

#include "fabric/counter_rises.hpp"
#include "schema/counter_baseline.hpp"

namespace ibkit {
namespace {

// A subnet's state file: some tens of bytes a port, 100,000 ports and more within this.
constexpr std::size_t kMaxFabricStateBytes = 64u << 20;

}  // namespace

FabricCounterState use_counter_state(const std::string& state_path, double wait_seconds,
                                     Subnet& fabric) {
  const std::int64_t now = std::time(nullptr);
  FabricCounterState state{take_state_turn(state_path, wait_seconds, "judged the counters as read"),
                           fabric_counter_snapshot(fabric, now), std::nullopt};
  std::string why = state.turn.problem;
  if (state.turn.lock) {
    const CounterBaseline baseline =
        load_counter_baseline(state_path, kFabricStateHost, "", now, kMaxFabricStateBytes);
    if (baseline.previous) {
      subtract_previous_counters(fabric, *baseline.previous);
      carry_unread_ports(state.snapshot, *baseline.previous);
      return state;
    }
    // No file yet is the first run's normal case, not a problem.
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(state_path, ec))) return state;
    why = baseline.why;
  }
  state.problem = CheckResult{
      "fabric.counters",
      "subnet",
      Status::kWarn,
      why,
      "the counters of the run that wrote " + state_path,
      "the error counters are judged as read this run; move the file away if it is not ibkit "
      "fabric's, or give each subnet its own --state FILE"};
  return state;
}

}  // namespace ibkit
