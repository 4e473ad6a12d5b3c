#include "schema/pair_report_json.hpp"

#include <string>

#include "model/pair_report.hpp"
#include "schema/check_report_json.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

LatencyStats read_latency(const json& object, const std::string& path, std::string* error) {
  JsonFields fields(object, path, error);
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

Throughput read_throughput(const json& object, const std::string& path, std::string* error) {
  JsonFields fields(object, path, error);
  return {fields.number("mib_per_s"), fields.number("gbps"), fields.number("mpps")};
}

std::map<std::string, std::int64_t> read_deltas(JsonFields& fields, const char* key,
                                                std::string* error) {
  std::map<std::string, std::int64_t> deltas;
  const auto* object = fields.object(key);
  if (!object) return deltas;
  for (const auto& [name, value] : object->items()) {
    if (!value.is_number_integer()) {
      *error = "field " + fields.path_of(key) + "." + name + " is not an integer";
      break;
    }
    deltas[name] = value.get<std::int64_t>();
  }
  return deltas;
}

// An active MTU (256 to 4096 bytes, a power of two), absent or null when it was not known.
std::optional<int> optional_mtu(JsonFields& fields, const char* key, std::string* error) {
  const auto* value = fields.optional(key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_integer()) {
    const auto mtu = value->get<std::int64_t>();
    for (int known = 256; known <= 4096; known *= 2) {
      if (mtu == known) return known;
    }
  }
  *error = "field " + fields.path_of(key) + " is not an MTU (256, 512, 1024, 2048 or 4096)";
  return std::nullopt;
}

VerbsMeasurement read_verbs(const json& object, const std::string& path, std::string* error) {
  JsonFields fields(object, path, error);
  VerbsMeasurement verbs;
  verbs.test = fields.text("test");
  verbs.op = fields.text("op");
  verbs.qps = static_cast<int>(fields.integer("qps"));
  verbs.bidir = fields.flag("bidirectional");
  verbs.rdma_cm = fields.flag("rdma_cm");
  // Both arrived with loopback tests and events: a report from before has neither.
  if (fields.optional("completions")) verbs.completions = fields.text("completions");
  if (fields.optional("loopback")) verbs.loopback = fields.text("loopback");
  verbs.local_device = fields.text("local_device");
  verbs.remote_device = fields.text("remote_device");
  if (const auto* rate = fields.optional("port_data_gbps")) {
    if (rate->is_number())
      verbs.port_data_gbps = rate->get<double>();
    else
      *error = "field " + fields.path_of("port_data_gbps") + " is not a number";
  }
  verbs.local_mtu = optional_mtu(fields, "local_active_mtu", error);
  verbs.remote_mtu = optional_mtu(fields, "remote_active_mtu", error);
  if (const auto* rate = fields.optional("remote_port_data_gbps")) {
    if (rate->is_number())
      verbs.remote_port_data_gbps = rate->get<double>();
    else
      *error = "field " + fields.path_of("remote_port_data_gbps") + " is not a number";
  }
  if (const auto* sizes = fields.array("sizes")) {
    for (std::size_t i = 0; i < sizes->size() && error->empty(); ++i) {
      auto size_path = indexed_path(fields.path_of("sizes"), i);
      JsonFields size_fields((*sizes)[i], size_path, error);
      SizeMeasurement size;
      size.size = size_fields.count("bytes");
      size.iterations = size_fields.count("iterations");
      size.seconds = size_fields.number("seconds");
      if (const auto* latency = size_fields.optional("latency")) {
        size.latency = read_latency(*latency, size_path + ".latency", error);
      }
      if (const auto* bandwidth = size_fields.optional("bandwidth")) {
        size.bandwidth = read_throughput(*bandwidth, size_path + ".bandwidth", error);
      }
      verbs.sizes.push_back(size);
    }
  }
  verbs.local_counter_deltas = read_deltas(fields, "local_counter_deltas", error);
  verbs.remote_counter_deltas = read_deltas(fields, "remote_counter_deltas", error);
  verbs.error = fields.text("error");
  return verbs;
}

TcpResult read_tcp(const json& object, const std::string& path, std::string* error) {
  JsonFields fields(object, path, error);
  TcpResult tcp;
  tcp.streams = static_cast<int>(fields.integer("streams"));
  tcp.write_size = fields.count("write_size");
  tcp.bidir = fields.flag("bidir");
  tcp.bytes_to_peer = fields.count("bytes_to_peer");
  tcp.bytes_from_peer = fields.count("bytes_from_peer");
  tcp.bytes = fields.count("bytes");
  tcp.seconds = fields.number("seconds");
  tcp.gbps = fields.number("gbps");
  tcp.mib_per_s = fields.number("mib_per_s");
  if (const auto* streams = fields.array("per_stream")) {
    for (std::size_t i = 0; i < streams->size() && error->empty(); ++i) {
      JsonFields stream_fields((*streams)[i], indexed_path(fields.path_of("per_stream"), i), error);
      TcpStreamResult stream;
      stream.bytes = stream_fields.count("bytes");
      stream.seconds = stream_fields.number("seconds");
      stream.gbps = stream_fields.number("gbps");
      tcp.per_stream.push_back(stream);
    }
  }
  return tcp;
}

nlohmann::ordered_json outcome_json(const PairOutcome& outcome) {
  nlohmann::ordered_json entry;
  entry["test"] = outcome.test;
  entry["error"] = outcome.error;
  if (outcome.verbs) entry["verbs"] = nlohmann::ordered_json(to_json(*outcome.verbs));
  if (outcome.tcp) entry["tcp"] = nlohmann::ordered_json(to_json(*outcome.tcp));
  return entry;
}

}  // namespace

nlohmann::ordered_json pair_report_json(const PairReport& report) {
  nlohmann::ordered_json document;
  document["schema"] = kPairSchema;
  document["host"] = report.host;
  document["peer"] = report.peer;
  document["generated_at"] = report.generated_at;
  document["agent_version"] = report.agent_version;
  document["config"] = report.config_source;
  document["verdict"] = any_failed(report.results) ? "fail" : "pass";
  document["counts"] = counts_json(report.results);
  auto tests = nlohmann::ordered_json::array();
  for (const auto& outcome : report.outcomes) tests.push_back(outcome_json(outcome));
  document["tests"] = tests;
  document["results"] = results_json(report.results);
  return document;
}

Expected<PairReport> pair_report_from_json(const json& document) {
  std::string error;
  JsonFields fields(document, "", &error);
  auto schema = fields.text("schema");
  if (error.empty() && schema != kPairSchema) {
    return Error{"schema \"" + schema + "\" is not " + kPairSchema};
  }
  PairReport report;
  report.host = fields.text("host");
  report.peer = fields.text("peer");
  report.generated_at = fields.text("generated_at");
  report.agent_version = fields.optional_text("agent_version");
  report.config_source = fields.text("config");
  if (const auto* tests = fields.array("tests")) {
    for (std::size_t i = 0; i < tests->size() && error.empty(); ++i) {
      auto path = indexed_path("tests", i);
      JsonFields outcome_fields((*tests)[i], path, &error);
      PairOutcome outcome;
      outcome.test = outcome_fields.text("test");
      outcome.error = outcome_fields.text("error");
      if (const auto* verbs = outcome_fields.optional("verbs")) {
        outcome.verbs = read_verbs(*verbs, path + ".verbs", &error);
      }
      if (const auto* tcp = outcome_fields.optional("tcp")) {
        outcome.tcp = read_tcp(*tcp, path + ".tcp", &error);
      }
      report.outcomes.push_back(std::move(outcome));
    }
  }
  if (const auto* results = fields.array("results"); results && error.empty()) {
    auto read = results_from_json(*results);
    if (read)
      report.results = std::move(*read);
    else
      error = read.error().message;
  }
  if (!error.empty()) return Error{error};
  return report;
}

}  // namespace ibkit
