#include "report/html/heatmap_codes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <unordered_map>

#include "model/sweep_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace code = heatmap_code;
namespace {

// One more than pair_status_rank's largest (a pass's 5): severity counts down from it.
constexpr int kPairStatusRanks = 6;

int level_of(double value, const HeatmapScale& scale) {
  return static_cast<int>(std::lround(scale_goodness(value, scale) * (code::kLevels - 1)));
}

double goodness_of_level(int level) { return static_cast<double>(level) / (code::kLevels - 1); }

bool is_pass(std::uint8_t c) {
  return c >= code::kPassFirst && c < code::kPassFirst + code::kLevels;
}
bool is_slow(std::uint8_t c) {
  return c >= code::kSlowFirst && c < code::kSlowFirst + code::kLevels;
}

// The pair status a code shows; nullopt for no pair.
std::optional<PairStatus> status_of(std::uint8_t c) {
  if (is_pass(c)) return PairStatus::kPass;
  if (is_slow(c)) return PairStatus::kSlow;
  switch (c) {
    case code::kNotRun:
      return PairStatus::kNotRun;
    case code::kUnreachable:
      return PairStatus::kUnreachable;
    case code::kTimedOut:
      return PairStatus::kTimedOut;
    case code::kFailed:
      return PairStatus::kFailed;
    default:
      return std::nullopt;
  }
}

// Higher is worse; the order worse_code() documents: by pair_status_rank, as every listing of
// pairs, then within a pass or a slow status by the figure's level (nearer the worst end worse).
int severity(std::uint8_t c) {
  const auto status = status_of(c);
  if (!status) return 0;
  const int by_status = (kPairStatusRanks - pair_status_rank(*status)) * 1000;
  if (is_pass(c)) return by_status + (code::kLevels - 1 - (c - code::kPassFirst));
  if (is_slow(c)) return by_status + (code::kLevels - 1 - (c - code::kSlowFirst));
  return by_status;
}

// "#rrggbb" of hsl(hue, saturation, lightness), each of the last two in 0..1.
std::string hex_of_hsl(double hue, double saturation, double lightness) {
  const double chroma = (1 - std::fabs(2 * lightness - 1)) * saturation;
  const double sector = hue / 60;
  const double x = chroma * (1 - std::fabs(std::fmod(sector, 2) - 1));
  double r = 0, g = 0, b = 0;
  if (sector < 1) {
    r = chroma;
    g = x;
  } else if (sector < 2) {
    r = x;
    g = chroma;
  } else if (sector < 3) {
    g = chroma;
    b = x;
  } else if (sector < 4) {
    g = x;
    b = chroma;
  } else if (sector < 5) {
    r = x;
    b = chroma;
  } else {
    r = chroma;
    b = x;
  }
  const double m = lightness - chroma / 2;
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)),
                static_cast<int>(std::lround((b + m) * 255)));
  return out;
}

}  // namespace

std::uint8_t heatmap_code_of(const SweepPair* pair, MatrixFigure figure, bool a_is_row,
                             const std::optional<HeatmapScale>& scale) {
  if (pair == nullptr) return code::kNone;
  switch (pair->status) {
    case PairStatus::kFailed:
      return code::kFailed;
    case PairStatus::kTimedOut:
      return code::kTimedOut;
    case PairStatus::kUnreachable:
      return code::kUnreachable;
    case PairStatus::kNotRun:
      return code::kNotRun;
    case PairStatus::kPass:
    case PairStatus::kSlow:
      break;
  }
  const auto value = cell_figure(*pair, figure, a_is_row ? pair->a : pair->b);
  if (!value || !scale) return code::kNotRun;
  const int level = level_of(*value, *scale);
  const std::uint8_t first =
      pair->status == PairStatus::kSlow ? code::kSlowFirst : code::kPassFirst;
  return static_cast<std::uint8_t>(first + level);
}

std::uint8_t worse_code(std::uint8_t a, std::uint8_t b) {
  return severity(b) > severity(a) ? b : a;
}

std::vector<std::uint8_t> heatmap_codes(const SweepReport& report, MatrixFigure figure,
                                        const std::optional<HeatmapScale>& scale) {
  const std::size_t n = report.nodes.size();
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(report.nodes[i], i);
  std::vector<std::uint8_t> worst(n * n, code::kNone);
  for (int rail = 0; rail < std::max(report.rails, 1); ++rail) {
    // A driven pair's own cell, and its mirror cell, used where nothing drove that way.
    std::vector<std::uint8_t> driven(n * n, code::kNone), mirrored(n * n, code::kNone);
    for (const auto& pair : report.pairs) {
      if (pair.rail != rail) continue;
      const auto a = index.find(pair.a), b = index.find(pair.b);
      if (a == index.end() || b == index.end() || a->second == b->second) continue;
      auto& own = driven[a->second * n + b->second];
      if (own == code::kNone) own = heatmap_code_of(&pair, figure, true, scale);
      auto& mirror = mirrored[b->second * n + a->second];
      if (mirror == code::kNone) mirror = heatmap_code_of(&pair, figure, false, scale);
    }
    for (std::size_t cell = 0; cell < n * n; ++cell) {
      const auto c = driven[cell] != code::kNone ? driven[cell] : mirrored[cell];
      worst[cell] = worse_code(worst[cell], c);
    }
  }
  return worst;
}

std::vector<std::string> heatmap_colours() {
  std::vector<std::string> colours(256, "#ffffff");
  colours[code::kNotRun] = "#d8d8d8";
  colours[code::kFailed] = colours[code::kTimedOut] = colours[code::kUnreachable] = "#d50000";
  for (int level = 0; level < code::kLevels; ++level) {
    const double goodness = goodness_of_level(level);
    // The same ramp as the table heatmap's goodness_colour().
    colours[code::kPassFirst + level] =
        hex_of_hsl(40 + 90 * goodness, 0.65, (62 - 12 * goodness) / 100);
    colours[code::kSlowFirst + level] = "#8a4b00";
  }
  return colours;
}

std::vector<std::string> heatmap_labels(MatrixFigure figure,
                                        const std::optional<HeatmapScale>& scale) {
  std::vector<std::string> labels(256);
  labels[code::kNotRun] = "not run or not measured";
  labels[code::kFailed] = std::string(pair_status_name(PairStatus::kFailed));
  labels[code::kTimedOut] = "timed out";
  labels[code::kUnreachable] = std::string(pair_status_name(PairStatus::kUnreachable));
  if (!scale) return labels;
  const bool latency = figure == MatrixFigure::kLatencyUs;
  const std::string unit = latency ? " us" : " Gb/s";
  for (int level = 0; level < code::kLevels; ++level) {
    const double value = scale->worst + (scale->best - scale->worst) * goodness_of_level(level);
    const std::string figure_text = format_number(value, latency ? 2 : 1) + unit;
    labels[code::kPassFirst + level] = "pass, ~" + figure_text;
    labels[code::kSlowFirst + level] = "slow, ~" + figure_text;
  }
  return labels;
}

}  // namespace ibkit
