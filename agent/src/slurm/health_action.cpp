#include "slurm/health_action.hpp"

namespace ibkit {
namespace {

std::string describe(const SlurmNode& node) {
  return "State=" + node.state + (node.reason.empty() ? "" : " Reason=" + node.reason);
}

HealthAction on_failure(const SlurmNode& node, const NodeCondition& condition,
                        const std::string& drain_reason) {
  const bool ours = reason_is_ibkit(node.reason);
  if (condition.drain && ours) {
    if (node.reason == drain_reason)
      return {HealthActionKind::kNothing, "", node.name + " stays drained by ibkit"};
    return {HealthActionKind::kUpdateReason, drain_reason,
            node.name + " stays drained by ibkit; reason updated"};
  }
  if (condition.drain || condition.down) {
    return {
        HealthActionKind::kNothing, "",
        node.name + " left alone: already out of service by someone else (" + describe(node) + ")"};
  }
  return {HealthActionKind::kDrain, drain_reason, node.name + " drained"};
}

HealthAction on_success(const SlurmNode& node, const NodeCondition& condition) {
  if (!condition.drain || !reason_is_ibkit(node.reason)) return {};
  if (condition.reboot_pending) {
    return {HealthActionKind::kNothing, "",
            node.name + " not resumed: a reboot is pending (" + describe(node) +
                "); resuming would cancel it"};
  }
  if (condition.down) {
    return {HealthActionKind::kNothing, "",
            node.name + " is down (" + describe(node) +
                "); ibkit resumes it once Slurm has it back up and only drained"};
  }
  return {HealthActionKind::kResume, "",
          node.name + " resumed (was drained with Reason=" + node.reason + ")"};
}

}  // namespace

bool reason_is_ibkit(std::string_view reason) { return reason.starts_with(kIbkitReasonMarker); }

HealthAction decide_health_action(const SlurmNode& node, bool healthy,
                                  const std::string& drain_reason) {
  const NodeCondition condition = node_condition(node.state);
  return healthy ? on_success(node, condition) : on_failure(node, condition, drain_reason);
}

}  // namespace ibkit
