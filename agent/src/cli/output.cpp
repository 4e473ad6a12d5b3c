#include "cli/output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "util/exit_codes.hpp"

namespace ibkit {

std::string write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      return "--output " + path + ": cannot create the file (" + std::strerror(errno) +
             "); give a writable path";
    file << content;
    file.flush();
    if (!file) return "--output " + path + ": write failed (" + std::strerror(errno) + ")";
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string message =
        "--output " + path + ": cannot rename into place (" + std::strerror(errno) + ")";
    std::remove(temporary.c_str());
    return message;
  }
  return "";
}

int deliver_report(Console& console, const std::string& command, const std::string& output,
                   const std::string& rendered, const std::string& text, int status) {
  if (output.empty()) {
    console.out << rendered;
    return status;
  }
  console.out << text;
  if (auto problem = write_file_atomically(output, rendered); !problem.empty()) {
    console.err << "ibkit " << command << ": " << problem << "\n";
    return kExitUsage;
  }
  return status;
}

}  // namespace ibkit
