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

std::string render_check_json(const CheckReport& report) {
  nlohmann::ordered_json document;
  document["schema"] = kCheckSchema;
  document["host"] = report.host;
  document["generated_at"] = report.generated_at;
  document["config"] = report.config_source;
  document["verdict"] = any_failed(report.results) ? "fail" : "pass";
  nlohmann::ordered_json counts = {{"pass", 0}, {"warn", 0}, {"fail", 0}, {"skip", 0}};
  auto results = nlohmann::ordered_json::array();
  for (const auto& result : report.results) {
    counts[std::string(status_name(result.status))] =
        counts[std::string(status_name(result.status))].get<int>() + 1;
    results.push_back({{"id", result.id},
                       {"subject", result.subject},
                       {"status", status_name(result.status)},
                       {"observed", result.observed},
                       {"expected", result.expected},
                       {"hint", result.hint}});
  }
  document["counts"] = counts;
  document["results"] = results;
  // Replace, not throw, on bytes that are not UTF-8 (a garbage sysfs file).
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ibkit
