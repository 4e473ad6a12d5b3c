#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ibkit {

// A JSON report as written to a file: indented, ending in a newline, with bytes that are not
// UTF-8 (a garbage sysfs file) replaced instead of thrown on.
std::string report_json_text(const nlohmann::ordered_json& document);

}  // namespace ibkit
