#pragma once

#include <string>

#include "model/pair_report.hpp"

namespace ibkit {

// JUnit XML: one testcase per verdict of the pair.
std::string render_pair_junit(const PairReport& report);

}  // namespace ibkit
