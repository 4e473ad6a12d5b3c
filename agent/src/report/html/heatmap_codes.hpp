#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/sweep_report.hpp"
#include "report/html/heatmap_scale.hpp"
#include "report/sweep_matrix.hpp"

namespace ibkit {

// The canvas heatmap's one byte per cell: what the cell shows, decided here and only painted
// by the page's script, which looks each code up in heatmap_colours() and heatmap_labels().
namespace heatmap_code {
inline constexpr std::uint8_t kNone = 0;    // no pair there, or the diagonal
inline constexpr std::uint8_t kNotRun = 1;  // not run, or it did not measure the figure
inline constexpr std::uint8_t kFailed = 2;  // the broken ones, each its own word
inline constexpr std::uint8_t kTimedOut = 3;
inline constexpr std::uint8_t kUnreachable = 4;
inline constexpr int kLevels = 120;              // of a figure, 0 the scale's worst end
inline constexpr std::uint8_t kPassFirst = 5;    // a pass at level L is kPassFirst + L
inline constexpr std::uint8_t kSlowFirst = 128;  // a slow pair at level L is kSlowFirst + L
}  // namespace heatmap_code

// The code of `pair`'s cell (nullptr: no pair) in the heatmap of `figure`, in a's row or in b's
// (cell_figure), its figure placed on `scale` (nullopt when no pair measured the figure).
std::uint8_t heatmap_code_of(const SweepPair* pair, MatrixFigure figure, bool a_is_row,
                             const std::optional<HeatmapScale>& scale);

// The code of the two that shows the worse verdict: broken over slow over not run over a pass
// over none, and between two figures of one status the one nearer the scale's worst end.
std::uint8_t worse_code(std::uint8_t a, std::uint8_t b);

// The node x node codes, row-major in report.nodes' order, of the worst of each cell's rails.
// A cell (row, column) shows the pair row drove against column, else the one column drove
// against row, as PairMatrix places them.
std::vector<std::uint8_t> heatmap_codes(const SweepReport& report, MatrixFigure figure,
                                        const std::optional<HeatmapScale>& scale);

// Each of the 256 codes' colour as "#rrggbb": white for none, grey not run, red broken, dark
// brown slow, and a pass from amber (the scale's worst) to green (its best).
std::vector<std::string> heatmap_colours();

// Each of the 256 codes' hover text: "pass, ~1.62 us", "slow, ~16.1 us", "failed", "not run or
// not measured", "" for none. The figure is its level's, to within 1% of the scale.
std::vector<std::string> heatmap_labels(MatrixFigure figure,
                                        const std::optional<HeatmapScale>& scale);

}  // namespace ibkit
