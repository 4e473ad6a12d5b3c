#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "measure/figures.hpp"
#include "measure/tcp_result.hpp"
#include "measure/verbs_measurement.hpp"

namespace ibkit {

// The measurement objects as a pair report's tests[].verbs and tests[].tcp hold them: each
// writer and its reader side by side, so a field is renamed in one place.

nlohmann::json to_json(const LatencyStats& stats);
nlohmann::json to_json(const Throughput& throughput);
nlohmann::json to_json(const VerbsMeasurement& measurement);
nlohmann::json to_json(const TcpResult& result);

// Read what to_json wrote. `path` names the object in error messages ("tests[0].verbs"). On a
// missing or wrong field the first error is stored in *error (left as is when it already holds
// one) and the returned value is partly filled; *error stays empty on success.
VerbsMeasurement read_verbs_measurement(const nlohmann::json& object, const std::string& path,
                                        std::string* error);
TcpResult read_tcp_result(const nlohmann::json& object, const std::string& path,
                          std::string* error);

}  // namespace ibkit
