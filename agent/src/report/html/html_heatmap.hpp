#pragma once

#include <string>

#include "model/sweep_report.hpp"
#include "report/sweep_matrix.hpp"

namespace ibkit {

// One rail's pair matrix of `figure` as an HTML table: nodes on both axes, each measured cell
// coloured from amber (half the rail's best bandwidth, twice its best latency, or worse) to
// green (the best), broken pairs hatched red with their status word, blamed nodes' headers red,
// and the pair's figures and reason in each cell's hover title. Then a legend: the scale's ends
// and a key for each kind of marked cell present.
std::string html_heatmap(const SweepReport& report, const PairMatrix& matrix, MatrixFigure figure,
                         int rail);

}  // namespace ibkit
