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

std::vector<bool> completion_events_of(Completions completions) {
  if (completions == Completions::kEvents) return {true};
  if (completions == Completions::kBoth) return {false, true};
  return {false};
}

TestRequest build_pair_request(const PairPlan& plan, const std::string& test) {
  TestRequest request;
  request.test = test;
  request.op = plan.op.empty() ? (test == "bw" ? "write" : "send") : plan.op;
  if (test == "tcp") request.op = "send";
  request.qps = test == "lat" ? 1 : plan.qps;
  request.bidir = test != "lat" && plan.bidir;
  request.tx_depth = plan.tx_depth;
  request.use_cm = plan.use_cm && test != "tcp";
  request.duration_s = test_duration_s(plan, test);
  request.iters = request.duration_s > 0 ? 0 : (plan.iters != 0 ? plan.iters : 1000);
  const std::uint64_t default_size = test == "lat" ? 2 : test == "bw" ? 65536 : 131072;
  request.sizes = {default_size};
  if (test != "tcp" && !plan.sizes.empty()) request.sizes = plan.sizes;
  if (test == "tcp" && plan.sizes.size() == 1) request.sizes = plan.sizes;
  if (test != "tcp") request.rail = plan.rail;
  if (test != "tcp") request.ack_timeout = plan.ack_timeout;
  request.events = test != "tcp" && plan.completions == Completions::kEvents;
  return request;
}

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
