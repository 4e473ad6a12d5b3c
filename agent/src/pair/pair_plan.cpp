#include "pair/pair_plan.hpp"

namespace ibkit {

double test_duration_s(const PairWorkload& workload, const std::string& test) {
  if (test == "lat") return 0;
  if (workload.duration_s > 0) return workload.duration_s;
  return workload.iters > 0 ? 0 : kDefaultTestDurationS;
}

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

}  // namespace ibkit
