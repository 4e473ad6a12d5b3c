#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/check_report.hpp"
#include "model/check_result.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The "results" array and "counts" object every JSON report carries.
nlohmann::ordered_json results_json(const CheckResults& results);
nlohmann::ordered_json counts_json(const CheckResults& results);

// {"schema": "ibkit.check/1", "host", "generated_at", "config", "verdict", "counts", "results"},
// and "command": "fabric" in what `ibkit fabric` wrote (absent: `ibkit check`'s).
nlohmann::ordered_json check_report_json(const CheckReport& report);

// Reads what check_report_json wrote (one node's `ibkit check --format json`). The Error names
// the field that is missing or wrong.
Expected<CheckReport> check_report_from_json(const nlohmann::json& document);

// Reads a "results" array as results_json wrote it. The Error names the first field that is
// missing or wrong ("results[3].status").
Expected<CheckResults> results_from_json(const nlohmann::json& array);

}  // namespace ibkit
