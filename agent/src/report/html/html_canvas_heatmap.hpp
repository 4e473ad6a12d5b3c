#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// The latency and bandwidth heatmaps of a fabric too large for a table: one <canvas> each,
// drawn by an inline script from one byte per node x node cell (heatmap_codes.hpp) of the
// worst of the cell's rails, with broken pairs marked by red squares of at least 15 pixels,
// blamed nodes by red ticks beside their row and column, a legend, and a line under the canvas
// that names the two nodes and the pair's status and figure under the pointer. The page stays
// self-contained; about 1.4 MB a figure at 1,024 nodes.
std::string html_canvas_heatmaps(const SweepReport& report);

}  // namespace ibkit
