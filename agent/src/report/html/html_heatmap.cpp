#include "report/html/html_heatmap.hpp"

#include <algorithm>
#include <optional>

#include "model/sweep_report.hpp"
#include "report/html/heatmap_scale.hpp"
#include "report/xml_escape.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

std::string hover_of(const SweepPair& pair, int rails) {
  std::string hover = pair_label(pair, rails) + ": " + std::string(pair_status_name(pair.status)) +
                      "\n" + pair_summary(pair);
  if (!pair.reason.empty()) hover += "\n" + pair.reason;
  return hover;
}

std::string cell(const SweepReport& report, const SweepPair* pair, MatrixFigure figure,
                 const std::string& row, const std::optional<HeatmapScale>& scale) {
  if (pair == nullptr) return "<td class=\"none\"></td>";
  const std::string title = " title=\"" + xml_escape(hover_of(*pair, report.rails)) + "\"";
  if (pair_broken(*pair)) {
    std::string word(pair_status_name(pair->status));
    std::replace(word.begin(), word.end(), '_', ' ');
    return "<td class=\"broken\"" + title + ">" + word + "</td>";
  }
  const auto value = cell_figure(*pair, figure, row);
  if (pair->status == PairStatus::kNotRun || !value) {
    return "<td class=\"notrun\"" + title + ">" +
           (pair->status == PairStatus::kNotRun ? "not run" : "") + "</td>";
  }
  const std::string slow = pair->status == PairStatus::kSlow ? " class=\"slow\"" : "";
  return "<td" + slow + " style=\"background:" + goodness_colour(scale_goodness(*value, *scale)) +
         "\"" + title + ">" + format_number(*value, figure == MatrixFigure::kLatencyUs ? 2 : 1) +
         "</td>";
}

// A node's row or column header; a blamed node's is red and says why on hover.
std::string header(const SweepReport& report, const std::string& node, const char* scope) {
  std::string attributes = " scope=\"" + std::string(scope) + "\"";
  for (const auto& blame : report.blamed) {
    if (blame.node == node)
      attributes += " class=\"blamed\" title=\"" + xml_escape("blamed: " + blame.reason) + "\"";
  }
  return "<th" + attributes + ">" + xml_escape(node) + "</th>";
}

// The scale's ends, and a key for each kind of marked cell the rail has (only those, so a
// passing sweep's page shows no red).
std::string legend(const SweepReport& report, MatrixFigure figure,
                   const std::optional<HeatmapScale>& scale, int rail) {
  bool broken = false, slow = false, not_run = false;
  for (const auto& pair : report.pairs) {
    if (pair.rail != rail) continue;
    broken = broken || pair_broken(pair);
    slow = slow || pair.status == PairStatus::kSlow;
    not_run = not_run || pair.status == PairStatus::kNotRun;
  }
  std::string out = legend_start(figure, scale);
  if (broken) out += "<span class=\"broken\">failed, timed out, unreachable</span>";
  if (slow) out += "<span class=\"slow\">slow</span>";
  if (not_run) out += "<span class=\"notrun\">not run</span>";
  return out + "</p>\n";
}

}  // namespace

std::string html_heatmap(const SweepReport& report, const PairMatrix& matrix, MatrixFigure figure,
                         int rail) {
  const auto scale = heatmap_scale(report, figure, rail);
  std::string out = "<table class=\"heatmap\"><tr><th></th>";
  for (const auto& node : report.nodes) out += header(report, node, "col");
  out += "</tr>\n";
  for (std::size_t row = 0; row < report.nodes.size(); ++row) {
    out += "<tr>" + header(report, report.nodes[row], "row");
    for (std::size_t column = 0; column < report.nodes.size(); ++column) {
      out += row == column
                 ? "<td class=\"self\"></td>"
                 : cell(report, matrix.at(row, column, rail), figure, report.nodes[row], scale);
    }
    out += "</tr>\n";
  }
  return out + "</table>\n" + legend(report, figure, scale, rail);
}

}  // namespace ibkit
