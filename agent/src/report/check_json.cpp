#include <ctime>

#include <nlohmann/json.hpp>

#include "report/check_report.hpp"

namespace ibkit {

std::string utc_timestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

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

std::string render_check_json(const CheckReport& report) {
  nlohmann::ordered_json document;
  document["schema"] = kCheckSchema;
  document["host"] = report.host;
  document["generated_at"] = report.generated_at;
  document["config"] = report.config_source;
  document["verdict"] = any_failed(report.results) ? "fail" : "pass";
  document["counts"] = counts_json(report.results);
  document["results"] = results_json(report.results);
  return report_json_text(document);
}

std::string report_json_text(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ibkit
