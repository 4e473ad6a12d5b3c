#include "report/sweep_matrix.hpp"

#include <algorithm>

#include "model/kept_figure.hpp"
#include "model/sweep_report.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// The most cells kept in one vector (8 bytes each): 2,048 nodes on one rail, 32 MiB.
constexpr std::size_t kDenseCells = std::size_t{1} << 22;

// A one-way test's other cell would be empty, and a slow or failed pair half unmarked: it
// fills both cells with its figure, as a test with no direction does.
bool measured_both_ways(const PairFigures& figures) {
  return figures.a_to_b_gbps && figures.b_to_a_gbps;
}

}  // namespace

std::string_view figure_name(MatrixFigure figure) {
  return figure == MatrixFigure::kLatencyUs ? "latency_us" : "bandwidth_gbps";
}

std::optional<double> figure_of(const PairFigures& figures, MatrixFigure figure) {
  return figure == MatrixFigure::kLatencyUs ? figures.latency_us : figures.bandwidth_gbps;
}

bool pair_broken(const SweepPair& pair) {
  return pair.status == PairStatus::kFailed || pair.status == PairStatus::kTimedOut ||
         pair.status == PairStatus::kUnreachable;
}

std::optional<double> cell_figure(const SweepPair& pair, MatrixFigure figure,
                                  const std::string& row_node) {
  const auto figures = pair_figures(pair);
  if (figure != MatrixFigure::kBandwidthGbps || !measured_both_ways(figures))
    return figure_of(figures, figure);
  return row_node == pair.a ? figures.a_to_b_gbps : figures.b_to_a_gbps;
}

std::string matrix_title(const SweepReport& report, MatrixFigure figure, const std::string& note) {
  if (figure == MatrixFigure::kLatencyUs)
    return "Latency (us, typical of the smallest size" + note + ")";
  const bool directed = std::any_of(report.pairs.begin(), report.pairs.end(), [](const auto& pair) {
    return measured_both_ways(pair_figures(pair));
  });
  return std::string("Bandwidth (Gb/s, largest size") +
         (directed ? "; row sends, column receives" : "") + note + ")";
}

std::string matrix_cell(const SweepPair* pair, MatrixFigure figure, const std::string& row_node) {
  if (pair == nullptr) return "";
  if (pair_broken(*pair)) return std::string(pair_status_name(pair->status));
  // As report.json keeps it: the sweep's own CSV and the one `ibkit report` writes from the
  // file are the same.
  auto value = cell_figure(*pair, figure, row_node);
  return value ? format_number(kept_figure(*value), 3) : "";
}

std::string pair_label(const SweepPair& pair, int rails) {
  return pair.a + " -> " + pair.b + (rails > 1 ? " rail " + std::to_string(pair.rail) : "");
}

std::string pair_summary(const SweepPair& pair) {
  std::string out = "round " + std::to_string(pair.round) + ", " + std::to_string(pair.attempts) +
                    (pair.attempts == 1 ? " attempt, " : " attempts, ") +
                    format_number(pair.seconds, 1) + " s";
  const auto figures = pair_figures(pair);
  if (figures.latency_us) out += ", latency " + format_number(*figures.latency_us) + " us";
  if (figures.bandwidth_gbps)
    out += ", bandwidth " + format_number(*figures.bandwidth_gbps) + " Gb/s";
  if (pair.status == PairStatus::kPass || pair.status == PairStatus::kSlow)
    out += ", rule " + pair_rules_name(pair.rules);
  return out;
}

std::vector<std::string> report_nodes(const SweepReport& report) {
  std::vector<std::string> nodes = report.nodes;
  for (const auto& check : report.node_checks) {
    if (std::find(nodes.begin(), nodes.end(), check.host) == nodes.end())
      nodes.push_back(check.host);
  }
  return nodes;
}

std::uint64_t PairMatrix::key(int rail, std::uint64_t a, std::uint64_t b) const {
  // Rails are 0..63 and a report names at most a few thousand nodes: 24 bits each is ample.
  return (static_cast<std::uint64_t>(rail) << 48) | (a << 24) | b;
}

std::uint64_t PairMatrix::number(const std::string& node) {
  return number_.try_emplace(node, number_.size()).first->second;
}

PairMatrix::PairMatrix(const SweepReport& report) {
  number_.reserve(report.nodes.size());
  for (const auto& node : report.nodes) number(node);
  bool rails_known = report.rails > 0;
  for (const auto& pair : report.pairs) {
    number(pair.a);
    number(pair.b);
    rails_known = rails_known && pair.rail >= 0 && pair.rail < report.rails;
  }
  const std::size_t side = number_.size();
  if (!rails_known || side * side * static_cast<std::size_t>(report.rails) > kDenseCells) {
    driven_.reserve(report.pairs.size());
    for (const auto& pair : report.pairs)
      driven_[key(pair.rail, number_.at(pair.a), number_.at(pair.b))] = &pair;
    return;
  }
  side_ = side;
  cells_.assign(side * side * static_cast<std::size_t>(report.rails), nullptr);
  auto place = [&](int rail, std::uint64_t row, std::uint64_t column) {
    return (static_cast<std::size_t>(rail) * side + row) * side + column;
  };
  // The pair a row drove first (the last of several), then the pair driven the other way into
  // each cell left empty, as the hashed lookup finds them.
  std::vector<bool> driven(cells_.size());
  for (const auto& pair : report.pairs) {
    const auto cell = place(pair.rail, number_.at(pair.a), number_.at(pair.b));
    cells_[cell] = &pair;
    driven[cell] = true;
  }
  for (const auto& pair : report.pairs) {
    const auto a = number_.at(pair.a);
    const auto b = number_.at(pair.b);
    if (!driven[place(pair.rail, b, a)])
      cells_[place(pair.rail, b, a)] = cells_[place(pair.rail, a, b)];
  }
}

const SweepPair* PairMatrix::at(std::size_t row, std::size_t column, int rail) const {
  if (!cells_.empty()) {
    if (row >= side_ || column >= side_ || rail < 0 ||
        static_cast<std::size_t>(rail) * side_ * side_ >= cells_.size())
      return nullptr;
    return cells_[(static_cast<std::size_t>(rail) * side_ + row) * side_ + column];
  }
  if (auto found = driven_.find(key(rail, row, column)); found != driven_.end())
    return found->second;
  if (auto found = driven_.find(key(rail, column, row)); found != driven_.end())
    return found->second;
  return nullptr;
}

const SweepPair* PairMatrix::at(const std::string& row, const std::string& column, int rail) const {
  const auto a = number_.find(row);
  const auto b = number_.find(column);
  if (a == number_.end() || b == number_.end()) return nullptr;
  return at(a->second, b->second, rail);
}

}  // namespace ibkit
