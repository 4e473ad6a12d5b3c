#include "util/file_write.hpp"

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "util/posix_error.hpp"

namespace ibkit {

std::string write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      return path + ": cannot create the file (" + errno_text(errno) + "); give a writable path";
    file << content;
    file.flush();
    if (!file) return path + ": write failed (" + errno_text(errno) + ")";
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string message = path + ": cannot rename into place (" + errno_text(errno) + ")";
    std::remove(temporary.c_str());
    return message;
  }
  return "";
}

}  // namespace ibkit
