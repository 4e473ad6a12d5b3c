#include "report/html/heatmap_scale.hpp"

#include <algorithm>

#include "util/text.hpp"

namespace ibkit {

std::optional<HeatmapScale> heatmap_scale(const SweepReport& report, MatrixFigure figure,
                                          std::optional<int> rail) {
  std::optional<HeatmapScale> scale;
  const bool lower_is_better = figure == MatrixFigure::kLatencyUs;
  for (const auto& pair : report.pairs) {
    if ((rail && pair.rail != *rail) || pair_broken(pair)) continue;
    for (const auto* row : {&pair.a, &pair.b}) {
      const auto value = cell_figure(pair, figure, *row);
      if (!value) continue;
      if (!scale) {
        scale = HeatmapScale{*value, *value};
      } else if (lower_is_better) {
        scale = HeatmapScale{std::max(scale->worst, *value), std::min(scale->best, *value)};
      } else {
        scale = HeatmapScale{std::min(scale->worst, *value), std::max(scale->best, *value)};
      }
    }
  }
  if (scale && lower_is_better) scale->worst = std::max(scale->worst, scale->best * 2);
  if (scale && !lower_is_better) scale->worst = std::min(scale->worst, scale->best / 2);
  return scale;
}

double scale_goodness(double value, const HeatmapScale& scale) {
  const double span = scale.best - scale.worst;
  return span == 0 ? 1.0 : std::clamp((value - scale.worst) / span, 0.0, 1.0);
}

std::string goodness_colour(double goodness) {
  return "hsl(" + format_number(40 + 90 * goodness, 0) + ",65%," +
         format_number(62 - 12 * goodness, 0) + "%)";
}

std::string legend_start(MatrixFigure figure, const std::optional<HeatmapScale>& scale) {
  const std::string unit = figure == MatrixFigure::kLatencyUs ? " us" : " Gb/s";
  std::string out = "<p class=\"legend\">";
  // Low to high, as the figures run; the amber end is where the colour stops changing (twice
  // the best latency, half the best bandwidth, or the worst measured beyond it), not a figure
  // any pair need have measured.
  if (scale && figure == MatrixFigure::kLatencyUs) {
    out += "<span>" + format_number(scale->best) + unit +
           "</span><span class=\"ramp down\"></span><span>" + format_number(scale->worst) + unit +
           " or more</span>";
  } else if (scale) {
    out += "<span>" + format_number(scale->worst) + unit +
           " or less</span><span class=\"ramp\"></span><span>" + format_number(scale->best) + unit +
           "</span>";
  }
  return out;
}

}  // namespace ibkit
