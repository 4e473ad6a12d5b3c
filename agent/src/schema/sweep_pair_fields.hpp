#pragma once

#include <string>

#include "model/sweep_report.hpp"
#include "util/json_fields.hpp"

namespace ibkit {

// Reads what every schema of a sweep report states of a pair the same way: rail, round,
// status, rule, attempts and seconds, into `pair`. The error names the field that is missing,
// out of range (a rail of `rails`, a round of `rounds`) or not a pair status, and fails `fields`.
void read_pair_outcome(JsonFields& fields, int rails, int rounds, SweepPair* pair);

}  // namespace ibkit
