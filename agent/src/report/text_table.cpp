#include "report/text_table.hpp"

#include <algorithm>
#include <numeric>

#include "util/text_wrap.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kGap = 2;
// A column narrowed to leave the last one room stops here: narrower, every cell would wrap.
constexpr std::size_t kNarrowestColumn = 12;
constexpr std::string_view kColourEnd = "\033[0m";

}  // namespace

std::string hanging_lines(std::string_view lead, std::size_t lead_width, std::size_t indent,
                          std::string_view text, std::size_t width) {
  const std::size_t taken = std::max(lead_width, indent);
  const std::size_t room = std::max(width > taken ? width - taken : 0, kNarrowestText);
  std::string out(lead);
  bool first = true;
  for (const auto piece : wrap_text(text, room)) {
    if (!first) out += "\n" + std::string(indent, ' ');
    out += without_trailing_spaces(piece);
    first = false;
  }
  return out + "\n";
}

TextTable::TextTable(std::vector<Column> columns, std::size_t width)
    : columns_(std::move(columns)), width_(width) {}

void TextTable::add_row(std::vector<Cell> cells) {
  cells.resize(columns_.size());
  lines_.push_back({std::move(cells), "", ""});
}

void TextTable::add_note(std::string lead, std::string text) {
  lines_.push_back({{}, std::move(lead), std::move(text)});
}

std::vector<std::size_t> TextTable::column_widths() const {
  std::vector<std::size_t> widths;
  for (const auto& column : columns_) widths.push_back(display_width(column.heading));
  for (const auto& line : lines_) {
    for (std::size_t i = 0; i < line.cells.size(); ++i)
      widths[i] = std::max(widths[i], display_width(line.cells[i].text));
  }
  if (widths.empty()) return widths;
  const std::size_t last = widths.size() - 1;
  for (std::size_t i = 0; i < last; ++i) {
    widths[i] =
        std::min(widths[i], std::max(columns_[i].widest, display_width(columns_[i].heading)));
  }
  const auto used = [&] {
    return std::accumulate(widths.begin(), widths.begin() + static_cast<long>(last),
                           std::size_t{0}) +
           kGap * last;
  };
  // The last column needs room for its widest cell or kNarrowestText, whichever is less: the
  // widest other column gives up a column at a time until it has it.
  const std::size_t last_needs = std::min(widths[last], kNarrowestText);
  while (used() + last_needs > width_) {
    const auto widest = std::max_element(widths.begin(), widths.begin() + static_cast<long>(last));
    if (widest == widths.begin() + static_cast<long>(last) || *widest <= kNarrowestColumn) break;
    --*widest;
  }
  widths[last] = std::max(width_ > used() ? width_ - used() : 0, last_needs);
  return widths;
}

std::string TextTable::row_lines(const std::vector<Cell>& cells,
                                 const std::vector<std::size_t>& widths) const {
  std::vector<std::vector<std::string_view>> pieces;
  std::size_t count = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    pieces.push_back(wrap_text(cells[i].text, widths[i]));
    count = std::max(count, pieces.back().size());
  }
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string_view piece =
          k < pieces[i].size() ? without_trailing_spaces(pieces[i][k]) : std::string_view();
      if (cells[i].colour.empty() || piece.empty()) {
        line += piece;
      } else {
        line += std::string(cells[i].colour) + std::string(piece) + std::string(kColourEnd);
      }
      if (i + 1 < cells.size()) {
        const std::size_t shown = display_width(piece);
        line += std::string((widths[i] > shown ? widths[i] - shown : 0) + kGap, ' ');
      }
    }
    out += std::string(without_trailing_spaces(line)) + "\n";
  }
  return out;
}

std::string TextTable::render() const {
  const auto widths = column_widths();
  std::vector<Cell> headings;
  for (const auto& column : columns_) headings.push_back({column.heading});
  std::string out = row_lines(headings, widths);
  for (const auto& line : lines_) {
    if (line.cells.empty()) {
      const std::size_t lead_width = display_width(line.lead);
      out += hanging_lines(line.lead, lead_width, lead_width, line.note, width_);
    } else {
      out += row_lines(line.cells, widths);
    }
  }
  return out;
}

}  // namespace ibkit
