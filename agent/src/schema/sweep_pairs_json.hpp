#pragma once

#include <cstddef>
#include <string>

#include "model/sweep_report.hpp"
#include "schema/json_object_writer.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// The most pairs whose whole report ibkit.sweep/2 keeps (docs/verdicts.md): a few megabytes,
// however many pairs failed.
inline constexpr std::size_t kMaxPairDetails = 2000;

// Writes the pairs of ibkit.sweep/2: "pair_columns", "reasons", "pairs" (one row a pair),
// "warnings", "details" (the whole report of non-passing and warned pairs, the first
// `max_details`) and "details_omitted".
void write_sweep_pairs(const SweepReport& report, JsonObjectWriter& writer,
                       std::size_t max_details = kMaxPairDetails);

// Reads what write_sweep_pairs wrote into report->pairs (and details_omitted); `report`'s nodes,
// rails and rounds are read already. The error names the field.
void read_sweep_pairs(JsonFields& fields, SweepReport* report);

}  // namespace ibkit
