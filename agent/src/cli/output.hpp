#pragma once

#include <iosfwd>
#include <string>

namespace ibkit {

// Where a command writes its report and its messages; main binds these to the real streams.
struct Console {
  std::ostream& out;
  std::ostream& err;
  bool colour;  // stdout is a terminal and NO_COLOR is unset
};

// Whether --output `output` sends the report to stdout: none given, or "-".
bool report_to_stdout(const std::string& output);

// Delivers a report: to stdout (report_to_stdout), `rendered` (the chosen format) goes there;
// to a file, `rendered` goes to the file and `text` to stdout (so a systemd unit's journal has
// it).
// Returns `status`, or the usage exit code when the file cannot be written (the results were
// printed all the same).
int deliver_report(Console& console, const std::string& command, const std::string& output,
                   const std::string& rendered, const std::string& text, int status);

}  // namespace ibkit
