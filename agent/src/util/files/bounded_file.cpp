#include "util/files/bounded_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

// Closes the descriptor it owns.
class OpenFile {
 public:
  explicit OpenFile(int fd) : fd_(fd) {}
  ~OpenFile() {
    if (fd_ >= 0) close(fd_);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// "a FIFO", "a directory", ...: what a file is when it is not a regular one.
const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

}  // namespace

std::string size_text(std::size_t bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

Expected<BoundedFile> read_bounded_file(const std::string& path, const FileLimit& limit) {
  const std::string name = limit.label.empty() ? path : std::string(limit.label) + " " + path;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  OpenFile file(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (file.fd() < 0 && errno == ENOENT && path == "-") {
    // Standard input to many tools; ibkit's inputs are files it sizes (and a key file's mode)
    // before reading.
    return Error{name + ": ibkit does not read standard input here; give the file's path"};
  }
  if (file.fd() < 0) return posix_error(name + ": cannot read", errno);
  struct stat info {};
  if (fstat(file.fd(), &info) != 0) return posix_error(name + ": cannot read", errno);
  if (!S_ISREG(info.st_mode)) {
    return Error{name + " is " + kind_of(info.st_mode) + ", not a regular file; give a file"};
  }
  const std::string too_large = name + " is larger than " + size_text(limit.max_bytes) +
                                ", the most ibkit reads from it; " + std::string(limit.hint);
  if (static_cast<std::uintmax_t>(info.st_size) > limit.max_bytes) return Error{too_large};

  // st_size is only a hint (procfs says 0, a file may grow): read until the end, but never
  // more than one byte past the cap.
  BoundedFile content;
  content.mode = static_cast<unsigned>(info.st_mode & 07777);
  content.owner = static_cast<unsigned>(info.st_uid);
  content.bytes.resize(static_cast<std::size_t>(info.st_size) + 1);
  std::size_t used = 0;
  for (;;) {
    if (used == content.bytes.size()) {
      if (used > limit.max_bytes) return Error{too_large};
      content.bytes.resize(std::min(used * 2, limit.max_bytes + 1));
    }
    const ssize_t got = read(file.fd(), content.bytes.data() + used, content.bytes.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return posix_error(name + ": cannot read", errno);
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  if (used > limit.max_bytes) return Error{too_large};
  content.bytes.resize(used);
  return content;
}

}  // namespace ibkit
