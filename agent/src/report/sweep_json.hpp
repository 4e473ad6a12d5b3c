#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// {"schema": "ibkit.sweep/1", "verdict", "nodes", "pairs": [every pair with every size], ...}
std::string render_sweep_json(const SweepReport& report);
// Reads what render_sweep_json wrote; the Error names the field that is missing, wrong, out of
// range (round, attempts, seconds) or inconsistent (check_sweep_consistency).
Expected<SweepReport> sweep_report_from_json(const nlohmann::json& document);

}  // namespace ibkit
