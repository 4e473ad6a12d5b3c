#pragma once

#include <string>

#include "model/check_report.hpp"

namespace ibkit {

// {"schema": "ibkit.check/1", "verdict": "pass"|"fail", "results": [...], ...} as a file holds it.
std::string render_check_json(const CheckReport& report);

}  // namespace ibkit
