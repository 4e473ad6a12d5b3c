#pragma once

#include <string>
#include <string_view>

#include "slurm/slurm_node.hpp"

namespace ibkit {

// The marker every reason ibkit sets starts with: a drain with it is ibkit's to lift.
inline constexpr std::string_view kIbkitReasonMarker = "ibkit:";

// What the health check does to the node in Slurm.
enum class HealthActionKind {
  kNothing,       // leave the node as it is
  kDrain,         // scontrol update State=DRAIN Reason=<reason>
  kUpdateReason,  // drained by ibkit already, for another reason: State=DRAIN, the new Reason
  kResume,        // drained by ibkit and healthy again: State=RESUME
};

struct HealthAction {
  HealthActionKind kind = HealthActionKind::kNothing;
  std::string reason;  // the Reason= to set (kDrain, kUpdateReason); "" otherwise
  std::string note;    // one line for stdout saying what was done or why nothing; "" = quiet
};

// Whether `reason` is one ibkit set (starts with kIbkitReasonMarker).
bool reason_is_ibkit(std::string_view reason);

// The decision, a pure function of the node as Slurm shows it and the check's verdict.
// `healthy` is the verdict; `drain_reason` (starting with the marker) is what a failure sets.
// A failing node that Slurm still schedules is drained; one ibkit drained keeps its drain,
// with the reason brought up to date; one drained, down or failed by anyone else is left
// alone. A healthy node is resumed only when it is drained (not down) with an ibkit reason and
// no reboot pending (a resume would cancel the administrator's reboot).
HealthAction decide_health_action(const SlurmNode& node, bool healthy,
                                  const std::string& drain_reason);

}  // namespace ibkit
