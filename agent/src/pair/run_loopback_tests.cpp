#include "pair/run_loopback_tests.hpp"

#include "pair/pair_verdict.hpp"
#include "pair/test_budget.hpp"
#include "verbs/loopback_session.hpp"

namespace ibkit {
namespace {

DeviceChoice end_of(const DeviceChoice& base, const std::string& device, int port) {
  DeviceChoice choice = base;
  choice.device = device;
  choice.port = port;
  choice.rail = -1;
  return choice;
}

// "mlx5_0/1" before the device is opened, when the choice names it; "(no port)" when it does
// not (the node has no rail to test: open_device says why).
std::string planned_label(const LoopbackTarget& target) {
  if (target.a.device.empty()) return "(no port)";
  auto label = [](const DeviceChoice& end) {
    return end.device + (end.port > 0 ? "/" + std::to_string(end.port) : "");
  };
  const bool one_end = target.a.device == target.b.device && target.a.port == target.b.port;
  return label(target.a) + (one_end ? "" : "-" + label(target.b));
}

PairOutcome run_target(const PairPlan& plan, const LoopbackTarget& target, const std::string& test,
                       bool events) {
  TestRequest request = build_pair_request(plan, test);
  request.use_cm = false;
  request.rail.reset();
  request.events = events;
  Deadline deadline = Deadline::after_seconds(test_deadline_s(request, plan.deadline_s));
  if (plan.until) deadline = deadline.min(*plan.until);
  PairOutcome outcome;
  outcome.test = test;
  outcome.verbs = run_loopback_test(request, target.a, target.b, deadline);
  if (outcome.verbs->loopback.empty()) outcome.verbs->loopback = planned_label(target);
  outcome.error = outcome.verbs->error;
  return outcome;
}

}  // namespace

std::vector<LoopbackTarget> loopback_targets(const std::vector<RailPort>& rail_ports,
                                             const DeviceChoice& device,
                                             const std::string& peer_device) {
  std::vector<LoopbackTarget> targets;
  if (!device.device.empty() && !peer_device.empty()) {
    targets.push_back({end_of(device, device.device, device.port), end_of(device, peer_device, 0)});
    return targets;
  }
  for (const auto& rail : rail_ports) {
    if (!device.device.empty() && rail.device != device.device) continue;
    if (device.port != 0 && rail.port != device.port) continue;
    const DeviceChoice end = end_of(device, rail.device, rail.port);
    targets.push_back({end, end});
  }
  if (targets.empty() && !device.device.empty()) {
    const DeviceChoice end = end_of(device, device.device, device.port);
    targets.push_back({end, end});
  }
  return targets;
}

PairTestsRun run_loopback_tests(const PairPlan& plan, const std::string& peer_device) {
  std::vector<RailPort> ports;
  if (plan.device.device.empty() || peer_device.empty()) {
    if (auto listed = rail_ports()) ports = std::move(*listed);
  }
  auto targets = loopback_targets(ports, plan.device, peer_device);
  // No rail (or none could be listed): the default device choice fails in open_device, which
  // says why (no device, no ib_uverbs, no Active port and each port's state).
  if (targets.empty()) targets.push_back({plan.device, plan.device});

  PairTestsRun run;
  for (const auto& target : targets) {
    for (const auto& test : plan.tests) {
      if (test == "tcp") continue;
      for (bool events : completion_events_of(plan.completions)) {
        run.outcomes.push_back(run_target(plan, target, test, events));
      }
    }
  }
  return run;
}

PairPlan loopback_check_plan() {
  PairPlan plan;
  plan.tests = {"lat", "bw"};
  plan.duration_s = 2;  // bandwidth only: latency runs its 1000 round trips (build_pair_request)
  plan.deadline_s = 60;
  return plan;
}

CheckResults run_loopback_check(const Thresholds& thresholds) {
  const PairTestsRun run = run_loopback_tests(loopback_check_plan(), "");
  CheckResults results = judge_pair(run.outcomes, thresholds);
  for (auto& result : results) {
    if (result.id.rfind("pair.", 0) == 0) result.id = "loopback." + result.id.substr(5);
  }
  return results;
}

}  // namespace ibkit
