#pragma once

#include <string>

#include "model/pair_report.hpp"

namespace ibkit {

// pair_report_json as a file holds it.
std::string render_pair_json(const PairReport& report);

}  // namespace ibkit
