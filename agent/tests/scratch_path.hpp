#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ibkit::test {

// A path under the temporary directory that belongs to this test process alone. ctest runs
// each test case as its own process, several at once (-j), so a fixed name shared by two
// cases lets one remove the other's files mid-run.
inline std::filesystem::path scratch_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("ibkit-" + std::to_string(getpid()) + "-" + name);
}

// Writes `content` to scratch_path(name) and returns the path.
inline std::string write_scratch_file(const std::string& name, const std::string& content) {
  const auto path = scratch_path(name);
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

}  // namespace ibkit::test
