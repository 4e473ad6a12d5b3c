#include "report/sweep_csv.hpp"

#include <stdexcept>
#include <string_view>

#include "model/sweep_report.hpp"
#include "report/sweep_matrix.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// RFC 4180: a field with a separator, a quote, a line break or edge spaces is quoted, and its
// quotes doubled.
std::string csv_quoted(const std::string& text) {
  const bool edge_space = !text.empty() && (text.front() == ' ' || text.back() == ' ');
  if (!edge_space && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// A text cell (a node name, a status word). A spreadsheet runs a cell that starts with = + - @
// (or a tab or CR before one) as a formula, so such a cell gets a leading single quote, as
// OWASP's CSV injection advice says: the text shows, nothing runs.
// Controls are shown as terminal_safe shows them: the file is read with cat as often as opened.
std::string csv_text(const std::string& raw) {
  const std::string text = terminal_safe(raw);
  const bool formula =
      !text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos;
  return csv_quoted(formula ? "'" + text : text);
}

// A figure, written as it is: a negative number must stay a number.
std::string csv_number(const std::string& number) { return csv_quoted(number); }

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += fields[i];
  }
  return line + "\n";
}

// A matrix cell: the status word of a broken pair (text), else its figure (a number) or "".
std::string csv_cell(const SweepPair* pair, MatrixFigure figure, const std::string& row) {
  const std::string cell = matrix_cell(pair, figure, row);
  return pair != nullptr && pair_broken(*pair) ? csv_text(cell) : csv_number(cell);
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
  for (const auto& node : report.nodes) header.push_back(csv_text(node));
  std::string out = csv_line(header);
  for (int rail = 0; rail < report.rails; ++rail) {
    for (std::size_t row = 0; row < report.nodes.size(); ++row) {
      std::vector<std::string> fields;
      if (by_rail) fields.push_back(std::to_string(rail));
      fields.push_back(csv_text(report.nodes[row]));
      for (std::size_t column = 0; column < report.nodes.size(); ++column) {
        fields.push_back(
            row == column ? "" : csv_cell(matrix.at(row, column, rail), figure, report.nodes[row]));
      }
      out += csv_line(fields);
    }
  }
  return out;
}

}  // namespace ibkit
