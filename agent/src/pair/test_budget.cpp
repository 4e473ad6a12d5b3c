#include "pair/test_budget.hpp"

#include <algorithm>

namespace ibkit {

std::vector<std::uint64_t> all_message_sizes() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 2; size <= RequestBounds::kMaxSize; size *= 2) sizes.push_back(size);
  return sizes;
}

double test_duration_s(const PairWorkload& workload, const std::string& test) {
  if (test == "lat") return 0;
  if (workload.duration_s > 0) return workload.duration_s;
  return workload.iters > 0 ? 0 : kDefaultTestDurationS;
}

std::size_t test_size_count(const PairWorkload& workload, const std::string& test) {
  if (test == "tcp") return 1;
  return std::max<std::size_t>(workload.sizes.size(), 1);
}

double planned_seconds(const PairWorkload& workload) {
  double seconds = 0;
  for (const auto& test : workload.tests) {
    seconds +=
        test_duration_s(workload, test) * static_cast<double>(test_size_count(workload, test));
  }
  return seconds;
}

double test_deadline_s(const TestRequest& request, double setup_margin_s) {
  const auto sizes = static_cast<double>(std::max<std::size_t>(request.sizes.size(), 1));
  return request.duration_s * sizes + setup_margin_s + kSizeMarginS * sizes;
}

double derived_pair_deadline_s(const PairWorkload& workload) {
  double seconds = 0;
  for (const auto& test : workload.tests) {
    const auto sizes = static_cast<double>(test_size_count(workload, test));
    seconds += test_duration_s(workload, test) * sizes + kTestSetupMarginS + kSizeMarginS * sizes;
  }
  return seconds;
}

}  // namespace ibkit
