#include "schema/measurement_json.hpp"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

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
    if (size.to_peer) entry["to_peer"] = to_json(*size.to_peer);
    if (size.from_peer) entry["from_peer"] = to_json(*size.from_peer);
    sizes.push_back(std::move(entry));
  }
  json object = {
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
  if (measurement.ack_timeout) object["ack_timeout"] = *measurement.ack_timeout;
  return object;
}

nlohmann::json to_json(const TcpResult& result) {
  json per_stream = json::array();
  for (const auto& stream : result.per_stream) {
    per_stream.push_back(
        {{"bytes", stream.bytes}, {"seconds", stream.seconds}, {"gbps", stream.gbps}});
  }
  return {{"streams", result.streams},
          {"write_size", result.write_size},
          {"bidir", result.bidir},
          {"bytes_to_peer", result.bytes_to_peer},
          {"bytes_from_peer", result.bytes_from_peer},
          {"bytes", result.bytes},
          {"seconds", result.seconds},
          {"gbps", result.gbps},
          {"gbps_to_peer", result.gbps_to_peer ? json(*result.gbps_to_peer) : json(nullptr)},
          {"gbps_from_peer", result.gbps_from_peer ? json(*result.gbps_from_peer) : json(nullptr)},
          {"mib_per_s", result.mib_per_s},
          {"per_stream", per_stream}};
}

namespace {

LatencyStats read_latency(JsonFields& parent, const json& object, const std::string& path) {
  JsonFields fields(parent, object, path);
  LatencyStats stats;
  stats.min_us = fields.number("t_min_us");
  stats.typical_us = fields.number("t_typical_us");
  stats.avg_us = fields.number("t_avg_us");
  stats.stdev_us = fields.number("t_stdev_us");
  stats.p99_us = fields.number("p99_us");
  stats.p999_us = fields.number("p99_9_us");
  stats.max_us = fields.number("t_max_us");
  return stats;
}

Throughput read_throughput(JsonFields& parent, const json& object, const std::string& path) {
  JsonFields fields(parent, object, path);
  return {fields.number("mib_per_s"), fields.number("gbps"), fields.number("mpps")};
}

std::map<std::string, std::int64_t> read_deltas(JsonFields& fields, const char* key) {
  std::map<std::string, std::int64_t> deltas;
  const auto* object = fields.object(key);
  if (!object) return deltas;
  for (const auto& [name, value] : object->items()) {
    if (!value.is_number_integer()) {
      fields.fail("field " + fields.path_of(key) + "." + name + " is not an integer");
      break;
    }
    deltas[name] = value.get<std::int64_t>();
  }
  return deltas;
}

// An active MTU (256 to 4096 bytes, a power of two), absent or null when it was not known.
std::optional<int> optional_mtu(JsonFields& fields, const char* key) {
  const auto* value = fields.optional(key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_integer()) {
    const auto mtu = value->get<std::int64_t>();
    for (int known = 256; known <= 4096; known *= 2) {
      if (mtu == known) return known;
    }
  }
  fields.fail("field " + fields.path_of(key) + " is not an MTU (256, 512, 1024, 2048 or 4096)");
  return std::nullopt;
}

}  // namespace

VerbsMeasurement read_verbs_measurement(JsonFields& parent, const json& object,
                                        const std::string& path) {
  JsonFields fields(parent, object, path);
  VerbsMeasurement verbs;
  verbs.test = fields.text("test");
  verbs.op = fields.text("op");
  verbs.qps = fields.integer_in("qps", 0, INT_MAX);
  verbs.bidir = fields.flag("bidirectional");
  verbs.rdma_cm = fields.flag("rdma_cm");
  if (fields.optional("ack_timeout")) verbs.ack_timeout = fields.integer_in("ack_timeout", 1, 31);
  // Both arrived with loopback tests and events: a report from before has neither.
  if (fields.optional("completions")) verbs.completions = fields.text("completions");
  if (fields.optional("loopback")) verbs.loopback = fields.text("loopback");
  verbs.local_device = fields.text("local_device");
  verbs.remote_device = fields.text("remote_device");
  if (const auto* rate = fields.optional("port_data_gbps")) {
    if (rate->is_number())
      verbs.port_data_gbps = rate->get<double>();
    else
      fields.fail("field " + fields.path_of("port_data_gbps") + " is not a number");
  }
  verbs.local_mtu = optional_mtu(fields, "local_active_mtu");
  verbs.remote_mtu = optional_mtu(fields, "remote_active_mtu");
  if (const auto* rate = fields.optional("remote_port_data_gbps")) {
    if (rate->is_number())
      verbs.remote_port_data_gbps = rate->get<double>();
    else
      fields.fail("field " + fields.path_of("remote_port_data_gbps") + " is not a number");
  }
  if (const auto* sizes = fields.array("sizes")) {
    for (std::size_t i = 0; i < sizes->size() && !fields.failed(); ++i) {
      auto size_path = indexed_path(fields.path_of("sizes"), i);
      JsonFields size_fields(fields, (*sizes)[i], size_path);
      SizeMeasurement size;
      size.size = size_fields.count("bytes");
      size.iterations = size_fields.count("iterations");
      size.seconds = size_fields.number("seconds");
      if (const auto* latency = size_fields.optional("latency")) {
        size.latency = read_latency(size_fields, *latency, size_path + ".latency");
      }
      if (const auto* bandwidth = size_fields.optional("bandwidth")) {
        size.bandwidth = read_throughput(size_fields, *bandwidth, size_path + ".bandwidth");
      }
      // Each way of a bidirectional size, since per-direction judgement came in.
      if (const auto* sent = size_fields.optional("to_peer")) {
        size.to_peer = read_throughput(size_fields, *sent, size_path + ".to_peer");
      }
      if (const auto* received = size_fields.optional("from_peer")) {
        size.from_peer = read_throughput(size_fields, *received, size_path + ".from_peer");
      }
      verbs.sizes.push_back(size);
    }
  }
  verbs.local_counter_deltas = read_deltas(fields, "local_counter_deltas");
  verbs.remote_counter_deltas = read_deltas(fields, "remote_counter_deltas");
  verbs.error = fields.text("error");
  return verbs;
}

TcpResult read_tcp_result(JsonFields& parent, const json& object, const std::string& path) {
  JsonFields fields(parent, object, path);
  TcpResult tcp;
  tcp.streams = fields.integer_in("streams", 0, INT_MAX);
  tcp.write_size = fields.count("write_size");
  tcp.bidir = fields.flag("bidir");
  tcp.bytes_to_peer = fields.count("bytes_to_peer");
  tcp.bytes_from_peer = fields.count("bytes_from_peer");
  tcp.bytes = fields.count("bytes");
  tcp.seconds = fields.number("seconds");
  tcp.gbps = fields.number("gbps");
  // Each way arrived later: absent or null in older reports.
  if (fields.optional("gbps_to_peer")) tcp.gbps_to_peer = fields.number("gbps_to_peer");
  if (fields.optional("gbps_from_peer")) tcp.gbps_from_peer = fields.number("gbps_from_peer");
  tcp.mib_per_s = fields.number("mib_per_s");
  if (const auto* streams = fields.array("per_stream")) {
    for (std::size_t i = 0; i < streams->size() && !fields.failed(); ++i) {
      JsonFields stream_fields(fields, (*streams)[i],
                               indexed_path(fields.path_of("per_stream"), i));
      TcpStreamResult stream;
      stream.bytes = stream_fields.count("bytes");
      stream.seconds = stream_fields.number("seconds");
      stream.gbps = stream_fields.number("gbps");
      tcp.per_stream.push_back(stream);
    }
  }
  return tcp;
}

}  // namespace ibkit
