#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/sweep_report.hpp"

namespace ibkit {

// The figures the CSV files are named by: "latency_us" and "bandwidth_gbps".
enum class MatrixFigure { kLatencyUs, kBandwidthGbps };
std::string_view figure_name(MatrixFigure figure);
// The figure of `figures` that `figure` names.
std::optional<double> figure_of(const PairFigures& figures, MatrixFigure figure);

// What the cell of `pair` in `row_node`'s row shows. Bandwidth is directed where the pair
// measured it both ways: the row sends, the column receives. Otherwise (latency, a one-way
// test, a report from before each way was kept) the pair's one figure fills both its cells.
std::optional<double> cell_figure(const SweepPair& pair, MatrixFigure figure,
                                  const std::string& row_node);

// A matrix's heading: "Bandwidth (Gb/s, largest size; row sends, column receives, rail 1)",
// with `note` (", rail 1") inside the brackets. The direction is named where some pair
// measured both ways.
std::string matrix_title(const SweepReport& report, MatrixFigure figure, const std::string& note);

// A pair that ended without a result: failed, timed out or unreachable. Matrices show its
// status word instead of a figure.
bool pair_broken(const SweepPair& pair);

// The cell text of a matrix: the status word of a broken pair, else the cell's figure as a
// report keeps it (kept_figure), else "" (no pair, not run, or not measured).
std::string matrix_cell(const SweepPair* pair, MatrixFigure figure, const std::string& row_node);

// "lab1 -> lab2" (and " rail 1" on multi-rail sweeps): how every report names a pair.
std::string pair_label(const SweepPair& pair, int rails);

// One line of what a pair did: "round 2, 1 attempt, 1.5 s, latency 1.8 us, bandwidth 96.2
// Gb/s, rule fleet" (the rule that decided a pass or slow pair), for hovers and JUnit.
std::string pair_summary(const SweepPair& pair);

// The sweep's nodes in hosts-file order, then the hosts that only have a check report.
std::vector<std::string> report_nodes(const SweepReport& report);

// The pairs of a sweep by their place in the matrix. The cell (row, column) holds the pair
// `row` drove against `column`, else the one `column` drove against `row`, so one scheduled
// pair fills both cells of an all-pairs matrix.
class PairMatrix {
 public:
  explicit PairMatrix(const SweepReport& report);
  // The pair in that cell, or nullptr when none was scheduled there.
  const SweepPair* at(const std::string& row, const std::string& column, int rail) const;
  // The same by the nodes' places in report.nodes: the writers' loops, a million cells at 1,024
  // nodes, without hashing a name for each.
  const SweepPair* at(std::size_t row, std::size_t column, int rail) const;

 private:
  std::unordered_map<std::string, std::uint64_t> number_;  // report.nodes first, in order
  // Up to kDenseCells cells, every cell in one vector (rail, row, column); past that, hashed by
  // node number: a 1,024-node matrix is a million lookups, and a tree keyed by two names took
  // seconds of them.
  std::vector<const SweepPair*> cells_;
  std::size_t side_ = 0;
  std::unordered_map<std::uint64_t, const SweepPair*> driven_;  // rail, a, b packed in one key
  std::uint64_t key(int rail, std::uint64_t a, std::uint64_t b) const;
  std::uint64_t number(const std::string& node);
};

}  // namespace ibkit
