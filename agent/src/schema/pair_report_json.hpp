#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/pair_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// {"schema": "ibkit.pair/1", "host", "peer", "generated_at", "config", "verdict", "counts",
// "tests": [every test with every size], "results"}: what `ibkit pair --format json` writes,
// what a drive answers the coordinator with, and what a sweep report holds per pair.
nlohmann::ordered_json pair_report_json(const PairReport& report);

// Reads what pair_report_json wrote back into the model: a sweep coordinator gets each pair's
// report this way, and `ibkit report` reads saved ones. The Error names the first field that
// is missing or wrong ("tests[0].verbs.sizes[2].bytes").
Expected<PairReport> pair_report_from_json(const nlohmann::json& document);

}  // namespace ibkit
