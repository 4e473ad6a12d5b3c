#pragma once

#include <optional>
#include <string>

#include "fabric/fabric_model.hpp"
#include "model/check_result.hpp"
#include "model/counter_snapshot.hpp"
#include "util/files/state_turn.hpp"

namespace ibkit {

// `ibkit fabric --state FILE`: what the counters rose by since the run that wrote FILE is what
// fabric.counters judges; this run's counters as read are what the next one starts from.
struct FabricCounterState {
  StateTurn turn;            // this run's turn at FILE: only a run that has it writes `snapshot`
  CounterSnapshot snapshot;  // the counters as read, and the ports' earlier ones that were not
  std::optional<CheckResult> problem;  // FILE could not be used: the counters are as read
};

// Takes the turn at `state_path` (waiting up to `wait_seconds` for another run's), reads the
// subnet's earlier counters from it and turns `fabric`'s counters into their rises since. No
// file yet is a first run, not a problem; a file that is not ibkit fabric's, or no turn in
// time, leaves the counters as read with a warning that says why and what to do.
FabricCounterState use_counter_state(const std::string& state_path, double wait_seconds,
                                     Subnet& fabric);

}  // namespace ibkit
