#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/sweep_report.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// {"on", "max_latency_ratio", "min_bandwidth_ratio", "references": [{"subject", "rail",
// "figure": "latency_us"|"bandwidth_gbps", "typical", "nodes", "typical_floor" (a latency's, when
// known)}]}: the "fleet" of a sweep report.
nlohmann::ordered_json fleet_json(const FleetJudgment& fleet);

// Reads what fleet_json wrote, `object` at `path` inside what `parent` reads; fails `parent`
// (naming the field) when it is wrong.
FleetJudgment read_fleet(JsonFields& parent, const nlohmann::json& object, const std::string& path);

// A pair's "rule" field: "none", or threshold, fleet and baseline joined by "+"; a pair without
// one (a report from before rules were recorded) reads as not recorded. Fails `fields` for any
// other value.
PairRules read_pair_rules(JsonFields& fields);

}  // namespace ibkit
