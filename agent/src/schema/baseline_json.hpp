#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/baseline_comparison.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// {"file", "generated_at", "factor", "regressions": [...], "pairs_regressed", "pairs_compared",
// "changes": [...], "not_compared": [...]}: the "baseline" of a sweep report.
nlohmann::ordered_json baseline_json(const BaselineComparison& baseline);

// Reads what baseline_json wrote, `object` at `path` inside what `parent` reads; fails `parent`
// (naming the field) when it is wrong.
BaselineComparison read_baseline_comparison(JsonFields& parent, const nlohmann::json& object,
                                            const std::string& path);

}  // namespace ibkit
