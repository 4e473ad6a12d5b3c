#pragma once

#include <cstddef>

#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Fails when `nodes` nodes on `rails` rails are more than a report holds: more than
// kMaxSweepNodes nodes, or more than kMaxMatrixCells cells in a pair matrix. The message
// gives both limits and says to sweep fewer nodes or rails at a time.
Expected<Done> check_report_size(std::size_t nodes, int rails);

// Checks that a sweep report agrees with itself, as the coordinator writes it: its size is
// within check_report_size and no node is listed twice; every pair names two different nodes
// of `nodes`, and no two pairs join the same nodes on one rail; every blamed node is one of
// `nodes`, blamed once. The Error names the field: "field pairs[3].a \"lab9\" is not one of
// nodes".
Expected<Done> check_sweep_consistency(const SweepReport& report);

}  // namespace ibkit
