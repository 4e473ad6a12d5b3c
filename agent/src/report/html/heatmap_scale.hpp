#pragma once

#include <optional>
#include <string>

#include "model/sweep_report.hpp"
#include "report/sweep_matrix.hpp"

namespace ibkit {

// The ends of a heatmap's colour scale: `worst` is drawn amber, `best` green.
struct HeatmapScale {
  double worst = 0;
  double best = 0;
};

// The scale of `figure` over the measured (not broken) pairs of `rail`, or of every rail when
// `rail` is unset; nullopt when none measured it. It spans at least a factor of two (twice the
// best latency, half the best bandwidth), so a few percent of noise stays green.
std::optional<HeatmapScale> heatmap_scale(const SweepReport& report, MatrixFigure figure,
                                          std::optional<int> rail);

// Where `value` sits on `scale`: 0 at the worst end (or beyond it), 1 at the best.
double scale_goodness(double value, const HeatmapScale& scale);

// The cell colour of a goodness: amber (hue 40) at 0 to green (hue 130) at 1, as "hsl(...)";
// red stays reserved for pairs that broke, so they stand out.
std::string goodness_colour(double goodness);

// The legend's opening and its ramp over `scale`, low figures to high (the best latency to
// "2.04 us or more", "45 Gb/s or less" to the best bandwidth) with the figure's unit, "<p
// class=\"legend\">" alone without a scale; the caller adds its own status spans and closes it.
std::string legend_start(MatrixFigure figure, const std::optional<HeatmapScale>& scale);

}  // namespace ibkit
