#pragma once

#include <string>

#include "model/check_report.hpp"

namespace ibkit {

// JUnit XML: one testcase per result; failures carry the hint, skips their reason.
std::string render_check_junit(const CheckReport& report);

}  // namespace ibkit
