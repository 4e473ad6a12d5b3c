#include "fuzz_input.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace ibkit::fuzz {

MemoryFile::MemoryFile(const char* name) : fd_(memfd_create(name, MFD_CLOEXEC)) {
  if (fd_ < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemoryFile::~MemoryFile() { close(fd_); }

void MemoryFile::write(std::string_view content) {
  if (ftruncate(fd_, 0) != 0) std::abort();
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t wrote =
        pwrite(fd_, content.data() + done, content.size() - done, static_cast<off_t>(done));
    if (wrote <= 0) std::abort();
    done += static_cast<std::size_t>(wrote);
  }
}

std::vector<std::string_view> sections(std::string_view text, std::string_view separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  std::size_t line = 0;
  while (line <= text.size()) {
    std::size_t end = text.find('\n', line);
    if (end == std::string_view::npos) end = text.size();
    if (text.substr(line, end - line) == separator) {
      parts.push_back(text.substr(start, line - start));
      start = end < text.size() ? end + 1 : text.size();
    }
    line = end + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

void broken_promise(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "ibkit fuzz: %.*s\n  %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(std::min<std::size_t>(detail.size(), 2000)), detail.data());
  std::abort();
}

}  // namespace ibkit::fuzz
