#include "pair/pair_json_read.hpp"

#include <string>

#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

std::string indexed(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::optional<Status> status_from_name(const std::string& name) {
  for (auto status : {Status::kPass, Status::kWarn, Status::kFail, Status::kSkip}) {
    if (status_name(status) == name) return status;
  }
  return std::nullopt;
}

CheckResults read_results(const json& array, const std::string& path, std::string* error) {
  CheckResults results;
  if (!array.is_array()) {
    *error = path + " is not an array";
    return results;
  }
  for (std::size_t i = 0; i < array.size() && error->empty(); ++i) {
    JsonFields fields(array[i], indexed(path, i), error);
    CheckResult result;
    result.id = fields.text("id");
    result.subject = fields.text("subject");
    auto status_word = fields.text("status");
    result.observed = fields.text("observed");
    result.expected = fields.text("expected");
    result.hint = fields.text("hint");
    auto status = status_from_name(status_word);
    if (error->empty() && !status)
      *error = indexed(path, i) + ".status \"" + status_word + "\" is not pass, warn, fail or skip";
    if (status) result.status = *status;
    results.push_back(std::move(result));
  }
  return results;
}

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

VerbsMeasurement read_verbs(const json& object, const std::string& path, std::string* error) {
  JsonFields fields(object, path, error);
  VerbsMeasurement verbs;
  verbs.test = fields.text("test");
  verbs.op = fields.text("op");
  verbs.qps = static_cast<int>(fields.integer("qps"));
  verbs.bidir = fields.flag("bidirectional");
  verbs.rdma_cm = fields.flag("rdma_cm");
  verbs.local_device = fields.text("local_device");
  verbs.remote_device = fields.text("remote_device");
  if (const auto* rate = fields.optional("port_data_gbps")) {
    if (rate->is_number())
      verbs.port_data_gbps = rate->get<double>();
    else
      *error = "field " + fields.path_of("port_data_gbps") + " is not a number";
  }
  if (const auto* sizes = fields.array("sizes")) {
    for (std::size_t i = 0; i < sizes->size() && error->empty(); ++i) {
      auto size_path = indexed(fields.path_of("sizes"), i);
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
      JsonFields stream_fields((*streams)[i], indexed(fields.path_of("per_stream"), i), error);
      TcpStreamResult stream;
      stream.bytes = stream_fields.count("bytes");
      stream.seconds = stream_fields.number("seconds");
      stream.gbps = stream_fields.number("gbps");
      tcp.per_stream.push_back(stream);
    }
  }
  return tcp;
}

}  // namespace

Expected<CheckResults> results_from_json(const json& array) {
  std::string error;
  auto results = read_results(array, "results", &error);
  if (!error.empty()) return Error{error};
  return results;
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
  report.config_source = fields.text("config");
  if (const auto* tests = fields.array("tests")) {
    for (std::size_t i = 0; i < tests->size() && error.empty(); ++i) {
      auto path = indexed("tests", i);
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
  if (const auto* results = fields.array("results")) {
    report.results = read_results(*results, "results", &error);
  }
  if (!error.empty()) return Error{error};
  return report;
}

}  // namespace ibkit
