#include "schema/check_report_json.hpp"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/check_report.hpp"
#include "util/json_fields.hpp"

namespace ibkit {
namespace {

using nlohmann::json;

std::optional<Status> status_from_name(const std::string& name) {
  for (auto status : {Status::kPass, Status::kWarn, Status::kFail, Status::kSkip}) {
    if (status_name(status) == name) return status;
  }
  return std::nullopt;
}

Expected<CheckResults> read_results(const json& array, const std::string& path) {
  CheckResults results;
  if (!array.is_array()) return Error{path + " is not an array"};
  for (std::size_t i = 0; i < array.size(); ++i) {
    JsonFields fields(array[i], indexed_path(path, i));
    CheckResult result;
    result.id = fields.text("id");
    result.subject = fields.text("subject");
    auto status_word = fields.text("status");
    result.observed = fields.text("observed");
    result.expected = fields.text("expected");
    result.hint = fields.text("hint");
    if (fields.failed()) return Error{fields.error()};
    auto status = status_from_name(status_word);
    if (!status) {
      return Error{indexed_path(path, i) + ".status \"" + status_word +
                   "\" is not pass, warn, fail or skip"};
    }
    result.status = *status;
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

nlohmann::ordered_json counts_json(const CheckResults& results) {
  nlohmann::ordered_json counts = {{"pass", 0}, {"warn", 0}, {"fail", 0}, {"skip", 0}};
  for (const auto& result : results) {
    auto& count = counts[std::string(status_name(result.status))];
    count = count.get<int>() + 1;
  }
  return counts;
}

nlohmann::ordered_json results_json(const CheckResults& results) {
  auto array = nlohmann::ordered_json::array();
  for (const auto& result : results) {
    array.push_back({{"id", result.id},
                     {"subject", result.subject},
                     {"status", status_name(result.status)},
                     {"observed", result.observed},
                     {"expected", result.expected},
                     {"hint", result.hint}});
  }
  return array;
}

nlohmann::ordered_json check_report_json(const CheckReport& report) {
  nlohmann::ordered_json document;
  document["schema"] = kCheckSchema;
  document["host"] = report.host;
  if (report.command != "check") document["command"] = report.command;
  document["generated_at"] = report.generated_at;
  document["agent_version"] = report.agent_version;
  document["config"] = report.config_source;
  document["verdict"] = any_failed(report.results) ? "fail" : "pass";
  document["counts"] = counts_json(report.results);
  document["results"] = results_json(report.results);
  return document;
}

Expected<CheckReport> check_report_from_json(const json& document) {
  JsonFields fields(document, "");
  const auto schema = fields.text("schema");
  if (!fields.failed() && schema != kCheckSchema)
    fields.fail("schema \"" + schema + "\" is not " + kCheckSchema);
  CheckReport report;
  report.host = fields.text("host");
  report.generated_at = fields.text("generated_at");
  report.agent_version = fields.optional_text("agent_version");
  report.config_source = fields.text("config");
  if (fields.optional("command") != nullptr) {
    report.command = fields.text("command");
    if (!fields.failed() && report.command != "check" && report.command != "fabric")
      fields.fail("field command: \"" + report.command.substr(0, 40) + "\" is not check or fabric");
  }
  const auto* results = fields.array("results");
  if (fields.failed()) return Error{fields.error()};
  auto read = results_from_json(*results);
  if (!read) return read.error();
  report.results = std::move(*read);
  return report;
}

Expected<CheckResults> results_from_json(const json& array) {
  return read_results(array, "results");
}

}  // namespace ibkit
