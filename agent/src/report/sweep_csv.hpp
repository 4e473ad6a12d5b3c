#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// The pair matrix of one figure as CSV ("latency_us" or "bandwidth_gbps"), nodes on both axes.
std::string render_sweep_csv(const SweepReport& report, const std::string& figure);

}  // namespace ibkit
