#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit {

// The columns a text report fits in when it does not go to a terminal (a pipe, a file, a
// journal): the terminal's own width is the caller's to pass when it writes to one.
constexpr std::size_t kReportWidth = 132;

// Fewest columns hanging_lines and a table's last column leave for text.
constexpr std::size_t kNarrowestText = 20;

// `text` after `lead`, wrapped to `width` columns, each later line indented by `indent` spaces;
// every line ends in '\n'. `lead_width` is the columns `lead` takes (colour codes in it are not
// counted). The text keeps kNarrowestText columns however narrow `width` is.
std::string hanging_lines(std::string_view lead, std::size_t lead_width, std::size_t indent,
                          std::string_view text, std::size_t width);

// A table for a terminal: columns two spaces apart, within a total width. A cell wider than its
// column goes on in that column on the lines below, every other column kept in place; a note
// under a row (a hint) wraps under its own start. Nothing is cut: a cell's lines, joined, are the
// cell (the spaces where a line broke are what the break replaced). A width too narrow for every
// column at its widest plus kNarrowestText for the last narrows the widest columns first, none
// below 12. Texts are shown as given, so they should have gone through terminal_safe.
class TextTable {
 public:
  struct Column {
    std::string heading;
    std::size_t widest;  // where its cells wrap; the last column's is what the width leaves
  };
  struct Cell {
    std::string text;
    std::string_view colour = {};  // an SGR sequence painting the text, none when empty
  };

  TextTable(std::vector<Column> columns, std::size_t width);

  // One row, a cell per column.
  void add_row(std::vector<Cell> cells);
  // A line under the row before it: `lead` (plain) then `text`, wrapped under its own start.
  void add_note(std::string lead, std::string text);

  std::string render() const;

 private:
  struct Line {
    std::vector<Cell> cells;  // none for a note
    std::string lead, note;
  };

  std::vector<std::size_t> column_widths() const;
  std::string row_lines(const std::vector<Cell>& cells,
                        const std::vector<std::size_t>& widths) const;

  std::vector<Column> columns_;
  std::size_t width_;
  std::vector<Line> lines_;
};

}  // namespace ibkit
