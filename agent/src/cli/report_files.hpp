#pragma once

#include <string>
#include <vector>

#include "cli/output.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// Writes the report files `formats` picks into `dir` (write_sweep_reports) and lists them on
// stdout. Returns `status`, or `unwritten_status` when a file cannot be written (the reason,
// naming the file, goes to stderr as "ibkit COMMAND: --output ...").
int write_report_files(Console& console, const std::string& command, const SweepReport& report,
                       const std::string& dir, const std::vector<std::string>& formats, int status,
                       int unwritten_status);

}  // namespace ibkit
