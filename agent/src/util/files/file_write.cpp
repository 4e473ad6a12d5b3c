#include "util/files/file_write.hpp"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <unistd.h>
#include <utility>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

// The temporary's name beside `path`: hidden, and random, so no one can plant a link there in
// advance and two writers of one file never share it.
std::string temporary_beside(const std::string& path) {
  std::filesystem::path target(path);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::random_device source;
  std::string suffix;
  for (int i = 0; i < 4; ++i) {
    for (unsigned word = source(), n = 0; n < 8; ++n, word >>= 4) suffix += kDigits[word & 0xf];
  }
  return (target.parent_path() / ("." + target.filename().string() + "." +
                                  std::to_string(getpid()) + "." + suffix + ".tmp"))
      .string();
}

bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

// The rename is on disk once the directory is: a crash after this leaves the new file, never
// an empty one. A directory that cannot be opened or synced (some filesystems) is no error.
void sync_directory_of(const std::string& path) {
  std::filesystem::path directory = std::filesystem::path(path).parent_path();
  if (directory.empty()) directory = ".";
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A new file under temporary_beside(path)'s name, its descriptor, or -1 with errno set.
int create_temporary_beside(const std::string& path, std::string& temporary) {
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    temporary = temporary_beside(path);
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  return fd;
}

}  // namespace

StagedFile::~StagedFile() {
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)), temporary_(std::exchange(other.temporary_, "")) {}

Expected<Done> StagedFile::move_into_place() {
  const std::string temporary = std::exchange(temporary_, "");
  if (std::rename(temporary.c_str(), path_.c_str()) != 0) {
    std::string message = path_ + ": cannot rename into place (" + errno_text(errno) + ")";
    std::remove(temporary.c_str());
    return Error{message};
  }
  sync_directory_of(path_);
  return Done{};
}

Expected<StagedFile> stage_file(const std::string& path, const std::string& content) {
  std::string temporary;
  int fd = create_temporary_beside(path, temporary);
  if (fd < 0) {
    return Error{path + ": cannot create the file (" + errno_text(errno) +
                 "); give a writable path"};
  }
  StagedFile staged(path, temporary);
  if (!write_all(fd, content) || ::fsync(fd) != 0 || ::close(std::exchange(fd, -1)) != 0) {
    std::string message = path + ": write failed (" + errno_text(errno) + ")";
    if (fd >= 0) ::close(fd);
    return Error{message};
  }
  return staged;
}

Expected<Done> write_file_atomically(const std::string& path, const std::string& content) {
  auto staged = stage_file(path, content);
  if (!staged) return staged.error();
  return staged->move_into_place();
}

Expected<Done> probe_writable_directory(const std::string& dir) {
  std::string temporary;
  int fd = create_temporary_beside((std::filesystem::path(dir) / "probe").string(), temporary);
  if (fd < 0) return Error{errno_text(errno)};
  ::close(fd);
  std::remove(temporary.c_str());
  return Done{};
}

}  // namespace ibkit
