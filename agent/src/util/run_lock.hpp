#pragma once

#include <optional>
#include <string>

#include "util/expected.hpp"

namespace ibkit {

// An exclusive lock on a file (flock) held for as long as the object lives: one run at a time of
// something a scheduler starts on a timer whether or not the last run has ended.
class RunLock {
 public:
  explicit RunLock(int fd) : fd_(fd) {}
  ~RunLock();
  RunLock(RunLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  RunLock& operator=(RunLock&&) = delete;
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

// The lock on `path` (created if missing), with this process's id written into it; nullopt when
// another process holds it, its id (as that one wrote it) in `holder`. An Error names the file
// when it cannot be opened or locked.
Expected<std::optional<RunLock>> try_run_lock(const std::string& path, std::string& holder);

}  // namespace ibkit
