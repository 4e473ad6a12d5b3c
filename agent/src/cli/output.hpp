#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "report/text_table.hpp"

namespace ibkit {

// Where a command writes its report and its messages; main binds these to the real streams.
struct Console {
  std::ostream& out;
  std::ostream& err;
  bool colour;                       // stdout is a terminal and NO_COLOR is unset
  std::size_t width = kReportWidth;  // columns a text report wraps to (text_width(stdout))
};

// The columns a text report written to `fd` wraps to: for a terminal $COLUMNS when it is a
// number, else the terminal's width; kReportWidth for anything else (a pipe, a file), so that
// what lands in a log does not depend on the terminal that started it.
std::size_t text_width(int fd);

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
