#pragma once

#include <string>

#include "model/sweep_report.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// Reads the "pairs" of ibkit.sweep/1: objects, each with its whole report when it had one.
void read_sweep_pairs_v1(JsonFields& fields, SweepReport* report);

}  // namespace ibkit
