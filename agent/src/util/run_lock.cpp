#include "util/run_lock.hpp"

#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

#include "util/posix_error.hpp"

namespace ibkit {

RunLock::~RunLock() {
  if (fd_ >= 0) close(fd_);
}

Expected<std::optional<RunLock>> try_run_lock(const std::string& path, std::string& holder) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return posix_error(path, errno);
  RunLock lock(fd);
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return posix_error(path + ": flock", errno);
    char text[32] = {};
    const ssize_t got = pread(fd, text, sizeof text - 1, 0);
    holder = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    return std::optional<RunLock>();
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  // The id is only for the message another run prints: a failure to write it is no reason to
  // give up the lock.
  if (ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t written = pwrite(fd, pid.data(), pid.size(), 0);
  }
  return std::optional<RunLock>(std::move(lock));
}

}  // namespace ibkit
