#include "schema/pair_report_json.hpp"

#include <string>

#include <nlohmann/json.hpp>

#include "model/pair_report.hpp"
#include "schema/check_report_json.hpp"
#include "schema/measurement_json.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

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
  JsonFields fields(document, "");
  auto schema = fields.text("schema");
  if (!fields.failed() && schema != kPairSchema) {
    return Error{"schema \"" + schema + "\" is not " + kPairSchema};
  }
  PairReport report;
  report.host = fields.text("host");
  report.peer = fields.text("peer");
  report.generated_at = fields.text("generated_at");
  report.agent_version = fields.optional_text("agent_version");
  report.config_source = fields.text("config");
  if (const auto* tests = fields.array("tests")) {
    for (std::size_t i = 0; i < tests->size() && !fields.failed(); ++i) {
      auto path = indexed_path("tests", i);
      JsonFields outcome_fields(fields, (*tests)[i], path);
      PairOutcome outcome;
      outcome.test = outcome_fields.text("test");
      outcome.error = outcome_fields.text("error");
      if (const auto* verbs = outcome_fields.optional("verbs")) {
        outcome.verbs = read_verbs_measurement(outcome_fields, *verbs, path + ".verbs");
      }
      if (const auto* tcp = outcome_fields.optional("tcp")) {
        outcome.tcp = read_tcp_result(outcome_fields, *tcp, path + ".tcp");
      }
      report.outcomes.push_back(std::move(outcome));
    }
  }
  if (const auto* results = fields.array("results"); results && !fields.failed()) {
    auto read = results_from_json(*results);
    if (read)
      report.results = std::move(*read);
    else
      fields.fail(read.error().message);
  }
  if (fields.failed()) return Error{fields.error()};
  return report;
}

}  // namespace ibkit
