#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "measure/figures.hpp"
#include "measure/tcp_result.hpp"
#include "measure/verbs_measurement.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// The measurement objects as a pair report's tests[].verbs and tests[].tcp hold them: each
// writer and its reader side by side, so a field is renamed in one place.

nlohmann::json to_json(const LatencyStats& stats);
nlohmann::json to_json(const Throughput& throughput);
nlohmann::json to_json(const VerbsMeasurement& measurement);
nlohmann::json to_json(const TcpResult& result);

// Read what to_json wrote: `object`, inside what `parent` reads, at `path`, which names it in
// error messages ("tests[0].verbs"). A missing or wrong field fails `parent` (unless it failed
// already) and the returned value is partly filled.
VerbsMeasurement read_verbs_measurement(JsonFields& parent, const nlohmann::json& object,
                                        const std::string& path);
TcpResult read_tcp_result(JsonFields& parent, const nlohmann::json& object,
                          const std::string& path);

}  // namespace ibkit
