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

// Delivers a report: without --output (or with "-"), `rendered` (the chosen format) goes to
// stdout; with it,
// `rendered` goes to the file and `text` to stdout (so a systemd unit's journal has it).
// Returns `status`, or the usage exit code when the file cannot be written (the results were
// printed all the same).
int deliver_report(Console& console, const std::string& command, const std::string& output,
                   const std::string& rendered, const std::string& text, int status);

}  // namespace ibkit
