#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "checks/check_result.hpp"

namespace ibkit {

inline constexpr const char* kCheckSchema = "ibkit.check/1";

// One node's check results, the single model every format is rendered from.
struct CheckReport {
  std::string host;
  std::string generated_at;  // UTC, ISO 8601
  std::string config_source;
  CheckResults results;
};

// Aligned columns, a hint under every result that is not a pass, then a summary line
// ("PASS: ..." or "FAIL: ..."): the table every text report ends with.
std::string render_results_table(const CheckResults& results, bool colour);

// Aligned columns, a hint under every result that is not a pass, then a summary line.
// ANSI colour only when `colour` is set (the caller knows whether it writes to a terminal).
std::string render_check_text(const CheckReport& report, bool colour);

// {"schema": "ibkit.check/1", "verdict": "pass"|"fail", "results": [...], ...}
std::string render_check_json(const CheckReport& report);

// JUnit XML: one testcase per result; failures carry the hint, skips their reason.
std::string render_junit(const std::string& suite, const std::string& host,
                         const std::string& timestamp, const CheckResults& results);
std::string render_check_junit(const CheckReport& report);

// The "results" array and "counts" object every JSON report carries.
nlohmann::ordered_json results_json(const CheckResults& results);
nlohmann::ordered_json counts_json(const CheckResults& results);

// A JSON report as written to a file: indented, ending in a newline, with bytes that are not
// UTF-8 (a garbage sysfs file) replaced instead of thrown on.
std::string report_json_text(const nlohmann::ordered_json& document);

// The current time as "2026-11-22T05:24:49Z".
std::string utc_timestamp();

}  // namespace ibkit
