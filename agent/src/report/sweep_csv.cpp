#include "report/sweep_csv.hpp"

#include <stdexcept>

#include "model/sweep_report.hpp"
#include "report/sweep_matrix.hpp"

namespace ibkit {
namespace {

// RFC 4180: a field with a separator, a quote, a line break or edge spaces is quoted, and its
// quotes doubled.
std::string csv_field(const std::string& text) {
  const bool edge_space = !text.empty() && (text.front() == ' ' || text.back() == ' ');
  if (!edge_space && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line + "\n";
}

MatrixFigure figure_named(const std::string& name) {
  for (auto figure : {MatrixFigure::kLatencyUs, MatrixFigure::kBandwidthGbps}) {
    if (figure_name(figure) == name) return figure;
  }
  throw std::invalid_argument("render_sweep_csv: no figure \"" + name + "\"");
}

}  // namespace

std::string render_sweep_csv(const SweepReport& report, const std::string& figure_text) {
  const MatrixFigure figure = figure_named(figure_text);
  const PairMatrix matrix(report);
  const bool by_rail = report.rails > 1;
  // Multi-rail: one matrix per rail, stacked, told apart by a leading rail column.
  std::vector<std::string> header;
  if (by_rail) header.push_back("rail");
  header.push_back(figure_text);
  header.insert(header.end(), report.nodes.begin(), report.nodes.end());
  std::string out = csv_line(header);
  for (int rail = 0; rail < report.rails; ++rail) {
    for (const auto& row : report.nodes) {
      std::vector<std::string> fields;
      if (by_rail) fields.push_back(std::to_string(rail));
      fields.push_back(row);
      for (const auto& column : report.nodes) {
        fields.push_back(row == column ? "" : matrix_cell(matrix.at(row, column, rail), figure));
      }
      out += csv_line(fields);
    }
  }
  return out;
}

}  // namespace ibkit
