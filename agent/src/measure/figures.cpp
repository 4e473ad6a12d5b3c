#include "measure/figures.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ibkit {
namespace {

double nearest_rank(const std::vector<double>& sorted, double percentile) {
  auto rank = static_cast<std::size_t>(
      std::ceil(percentile * static_cast<double>(sorted.size()) / 100.0 - 1e-9));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

LatencyStats latency_stats(std::vector<double> samples_us) {
  LatencyStats stats;
  if (samples_us.empty()) return stats;
  std::sort(samples_us.begin(), samples_us.end());
  const double count = static_cast<double>(samples_us.size());
  stats.min_us = samples_us.front();
  stats.max_us = samples_us.back();
  const std::size_t middle = samples_us.size() / 2;
  stats.typical_us = samples_us.size() % 2 == 1
                         ? samples_us[middle]
                         : (samples_us[middle - 1] + samples_us[middle]) / 2.0;
  stats.avg_us = std::accumulate(samples_us.begin(), samples_us.end(), 0.0) / count;
  double squares = 0;
  for (double sample : samples_us) squares += (sample - stats.avg_us) * (sample - stats.avg_us);
  stats.stdev_us = std::sqrt(squares / count);
  stats.p99_us = nearest_rank(samples_us, 99.0);
  stats.p999_us = nearest_rank(samples_us, 99.9);
  return stats;
}

Throughput throughput(std::uint64_t bytes, std::uint64_t messages, double seconds) {
  if (seconds <= 0) return {};
  return {static_cast<double>(bytes) / seconds / (1024.0 * 1024.0),
          static_cast<double>(bytes) * 8.0 / seconds / 1e9,
          static_cast<double>(messages) / seconds / 1e6};
}

}  // namespace ibkit
