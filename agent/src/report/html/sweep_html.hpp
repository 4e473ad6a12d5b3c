#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// One self-contained page (no external assets): heatmaps of latency and bandwidth, failed
// pairs marked, the figures on hover, and the per-node check results.
std::string render_sweep_html(const SweepReport& report);

}  // namespace ibkit
