#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// A CI job summary: verdict, blamed nodes, failed pairs, then the matrices as tables.
std::string render_sweep_markdown(const SweepReport& report);

}  // namespace ibkit
