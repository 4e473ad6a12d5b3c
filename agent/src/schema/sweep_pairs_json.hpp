#pragma once

#include <cstddef>
#include <string>

#include "model/sweep_report.hpp"
#include "schema/json_object_writer.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// The most pairs whose whole report a sweep report keeps (docs/verdicts.md): a few megabytes,
// however many pairs failed.
inline constexpr std::size_t kMaxPairDetails = 2000;

// Writes the pairs of ibkit.sweep/3: "pair_columns", "pair_defaults" (what a row's last columns
// hold when it leaves them out), "reasons", "pairs" (one row a pair, figures as kept_figure
// keeps them), "warnings", "details" (the whole report of non-passing and warned pairs, the
// first `max_details`) and "details_omitted".
void write_sweep_pairs(const SweepReport& report, JsonObjectWriter& writer,
                       std::size_t max_details = kMaxPairDetails);

// Reads what write_sweep_pairs wrote into report->pairs (and details_omitted); `report`'s nodes,
// rails and rounds are read already. The error names the field.
void read_sweep_pairs(JsonFields& fields, SweepReport* report);

// The same for ibkit.sweep/2: every value in every row, in an older order, figures to a
// thousandth.
void read_sweep_pairs_v2(JsonFields& fields, SweepReport* report);

}  // namespace ibkit
