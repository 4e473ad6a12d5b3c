#include "measure/verbs_measurement.hpp"

#include <algorithm>

namespace ibkit {

void finish_bandwidth_size(SizeMeasurement& measured, const std::optional<DirectionSent>& other) {
  if (other) {
    measured.to_peer = throughput(measured.bytes, measured.iterations, measured.seconds);
    measured.from_peer = throughput(other->bytes, other->messages, other->seconds);
    measured.bytes += other->bytes;
    measured.iterations += other->messages;
    measured.seconds = std::max(measured.seconds, other->seconds);
  }
  measured.bandwidth = throughput(measured.bytes, measured.iterations, measured.seconds);
}

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
