#pragma once

#include <nlohmann/json.hpp>

#include "checks/check_result.hpp"
#include "pair/pair_outcome.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Reads what render_pair_json wrote (schema "ibkit.pair/1") back into the model: a sweep
// coordinator gets each pair's report this way, and `ibkit report` reads saved ones. The Error
// names the first field that is missing or wrong ("tests[0].verbs.sizes[2].bytes").
Expected<PairReport> pair_report_from_json(const nlohmann::json& document);

// Reads a "results" array as results_json wrote it.
Expected<CheckResults> results_from_json(const nlohmann::json& array);

}  // namespace ibkit
