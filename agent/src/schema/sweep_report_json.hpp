#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// {"schema": "ibkit.sweep/3", "verdict", "nodes", "pairs": [one row a pair], "details": [the
// whole report of the pairs that did not pass or warned], ...} (docs/verdicts.md), compact.
std::string render_sweep_json(const SweepReport& report);
// Reads what render_sweep_json wrote, and ibkit.sweep/2 (every value in every row) and /1 (every
// pair an object with its whole report) as earlier versions wrote them; the Error names the
// field that is missing, wrong, out of range (round, attempts, seconds) or inconsistent
// (check_sweep_consistency).
Expected<SweepReport> sweep_report_from_json(const nlohmann::json& document);

}  // namespace ibkit
