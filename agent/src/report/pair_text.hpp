#pragma once

#include <string>

#include "model/pair_report.hpp"

namespace ibkit {

// perftest-style tables per test, then the verdict table.
std::string render_pair_text(const PairReport& report, bool colour);

}  // namespace ibkit
