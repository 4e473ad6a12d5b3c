#include "pair/test_budget.hpp"

#include "verbs/send_window.hpp"

namespace ibkit {
namespace {

PairPlan plan_from(const PairWorkload& workload, int tx_depth) {
  PairPlan plan;
  static_cast<PairWorkload&>(plan) = workload;
  plan.tx_depth = tx_depth;
  return plan;
}

// Seconds for what one bandwidth size keeps in flight to drain at the slowest allowed rate:
// every queue pair's window, in both directions when bidirectional.
double drain_s(const TestRequest& request, std::uint64_t size) {
  if (request.test != "bw" || request.duration_s <= 0) return 0;
  const auto window =
      send_window(size, static_cast<std::uint32_t>(request.tx_depth), /*by_duration=*/true);
  const double bytes = static_cast<double>(window) * static_cast<double>(size) *
                       static_cast<double>(request.qps) * (request.bidir ? 2 : 1);
  return bytes / kSlowestDrainBytesPerS;
}

}  // namespace

std::vector<std::uint64_t> all_message_sizes() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 2; size <= RequestBounds::kMaxSize; size *= 2) sizes.push_back(size);
  return sizes;
}

double test_deadline_s(const TestRequest& request, double setup_margin_s) {
  double seconds = setup_margin_s;
  for (std::uint64_t size : request.sizes) {
    seconds += request.duration_s + kSizeMarginS + drain_s(request, size);
  }
  return seconds;
}

double planned_seconds(const PairWorkload& workload) {
  const PairPlan plan = plan_from(workload, 128);
  double seconds = 0;
  for (const auto& test : workload.tests) {
    const TestRequest request = build_pair_request(plan, test);
    seconds += request.duration_s * static_cast<double>(request.sizes.size());
  }
  return seconds;
}

double derived_pair_deadline_s(const PairWorkload& workload, int tx_depth) {
  const PairPlan plan = plan_from(workload, tx_depth);
  double seconds = 0;
  for (const auto& test : workload.tests) {
    seconds += test_deadline_s(build_pair_request(plan, test), kTestSetupMarginS);
  }
  return seconds;
}

}  // namespace ibkit
