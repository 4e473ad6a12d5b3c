#include "measure/verbs_measurement.hpp"

namespace ibkit {

const SizeMeasurement* smallest_latency_size(const VerbsMeasurement& measurement) {
  const SizeMeasurement* chosen = nullptr;
  for (const auto& size : measurement.sizes) {
    if (size.latency && (chosen == nullptr || size.size < chosen->size)) chosen = &size;
  }
  return chosen;
}

const SizeMeasurement* largest_bandwidth_size(const VerbsMeasurement& measurement) {
  const SizeMeasurement* chosen = nullptr;
  for (const auto& size : measurement.sizes) {
    if (size.bandwidth && (chosen == nullptr || size.size > chosen->size)) chosen = &size;
  }
  return chosen;
}

}  // namespace ibkit
