#include "pair/run_pair_tests.hpp"

#include <nlohmann/json.hpp>

#include "control/session.hpp"
#include "model/pair_report.hpp"
#include "pair/test_budget.hpp"
#include "tcp/tcp_throughput.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {
namespace {

// Runs one test in its own session; `reached` tells whether the peer's agent answered.
PairOutcome run_test(const std::string& peer, std::uint16_t port,
                     const std::optional<SharedKey>& key, const PairPlan& plan,
                     const std::string& test, bool events, bool& reached) {
  PairOutcome outcome;
  outcome.test = test;
  TestRequest request = build_pair_request(plan, test);
  request.events = events && test != "tcp";
  Deadline deadline = Deadline::after_seconds(test_deadline_s(request, plan.deadline_s));
  if (plan.until) deadline = deadline.min(*plan.until);
  // Reaching the peer is setup, not measuring: it gets the margin, never the test's duration.
  const Deadline connect_deadline =
      Deadline::after_seconds(plan.connect_timeout_s > 0 ? plan.connect_timeout_s : plan.deadline_s)
          .min(deadline);
  auto channel = connect_to_peer(peer, port, key, connect_deadline);
  reached = channel.ok();
  if (!channel) {
    outcome.error = channel.error().message;
    return outcome;
  }
  if (auto accepted = start_session(**channel, request, deadline); !accepted) {
    outcome.error = accepted.error().message;
    return outcome;
  }
  if (test == "tcp") {
    auto tcp = run_tcp_client(**channel, request, deadline);
    if (tcp) {
      outcome.tcp = *tcp;
    } else {
      outcome.error = tcp.error().message;
    }
    return outcome;
  }
  DeviceChoice device = plan.device;
  if (plan.rail && device.device.empty()) device.rail = *plan.rail;
  outcome.verbs = run_verbs_test(**channel, request, device, deadline);
  outcome.error = outcome.verbs->error;
  return outcome;
}

}  // namespace

PairTestsRun run_pair_tests(const std::string& peer, std::uint16_t port,
                            const std::optional<SharedKey>& key, const PairPlan& plan) {
  PairTestsRun run;
  bool any_reached = false;
  for (const auto& test : plan.tests) {
    const auto modes =
        test == "tcp" ? std::vector<bool>{false} : completion_events_of(plan.completions);
    for (bool events : modes) {
      bool reached = false;
      run.outcomes.push_back(run_test(peer, port, key, plan, test, events, reached));
      any_reached = any_reached || reached;
    }
  }
  run.peer_answered = any_reached || plan.tests.empty();
  return run;
}

}  // namespace ibkit
