#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibkit::fuzz {

// The fuzzer's bytes as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A file in memory (memfd) that a reader opens by path, for the parsers that take a file name:
// write() replaces its content, path() is "/proc/self/fd/N". No disk, nothing left behind.
class MemoryFile {
 public:
  explicit MemoryFile(const char* name);
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  void write(std::string_view content);
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

// Splits `text` at every line that is exactly `separator` (a line of its own): the sections of
// an input that feeds several parsers. Always at least one section.
std::vector<std::string_view> sections(std::string_view text, std::string_view separator);

// Stops the fuzzer with a message when a property that the code promises does not hold:
// libFuzzer keeps the input as a crash, like any sanitizer finding.
[[noreturn]] void broken_promise(std::string_view what, std::string_view detail);

}  // namespace ibkit::fuzz
