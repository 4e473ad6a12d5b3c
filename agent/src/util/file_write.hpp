#pragma once

#include <string>

namespace ibkit {

// Writes `content` to `path` through a temporary file and a rename, so a reader never sees half
// a report. Returns "" on success, else a one-line message that starts with the path.
std::string write_file_atomically(const std::string& path, const std::string& content);

}  // namespace ibkit
