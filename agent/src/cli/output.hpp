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

// Writes `content` to `path` through a temporary file and a rename, so a reader never sees half
// a report. Returns "" on success, else a one-line message naming the path.
std::string write_file_atomically(const std::string& path, const std::string& content);

}  // namespace ibkit
