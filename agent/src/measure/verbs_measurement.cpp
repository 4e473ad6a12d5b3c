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

namespace {

template <class T>
nlohmann::json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

}  // namespace

nlohmann::json to_json(const LatencyStats& stats) {
  return {{"t_min_us", stats.min_us}, {"t_typical_us", stats.typical_us},
          {"t_avg_us", stats.avg_us}, {"t_stdev_us", stats.stdev_us},
          {"p99_us", stats.p99_us},   {"p99_9_us", stats.p999_us},
          {"t_max_us", stats.max_us}};
}

nlohmann::json to_json(const Throughput& throughput) {
  return {
      {"mib_per_s", throughput.mib_per_s}, {"gbps", throughput.gbps}, {"mpps", throughput.mpps}};
}

nlohmann::json to_json(const VerbsMeasurement& measurement) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& size : measurement.sizes) {
    nlohmann::json entry = {
        {"bytes", size.size}, {"iterations", size.iterations}, {"seconds", size.seconds}};
    if (size.latency) entry["latency"] = to_json(*size.latency);
    if (size.bandwidth) entry["bandwidth"] = to_json(*size.bandwidth);
    sizes.push_back(std::move(entry));
  }
  return {
      {"test", measurement.test},
      {"op", measurement.op},
      {"qps", measurement.qps},
      {"bidirectional", measurement.bidir},
      {"rdma_cm", measurement.rdma_cm},
      {"completions", measurement.completions},
      {"loopback", measurement.loopback},
      {"local_device", measurement.local_device},
      {"remote_device", measurement.remote_device},
      {"port_data_gbps",
       measurement.port_data_gbps ? nlohmann::json(*measurement.port_data_gbps) : nlohmann::json()},
      {"local_active_mtu", optional_json(measurement.local_mtu)},
      {"remote_active_mtu", optional_json(measurement.remote_mtu)},
      {"remote_port_data_gbps", optional_json(measurement.remote_port_data_gbps)},
      {"sizes", sizes},
      {"local_counter_deltas", measurement.local_counter_deltas},
      {"remote_counter_deltas", measurement.remote_counter_deltas},
      {"error", measurement.error}};
}

}  // namespace ibkit
