#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "util/expected.hpp"
#include "util/time/deadline.hpp"

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
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// Done when `directory` is one no other user can create, rename or remove entries in: it
// belongs to this user or root and no group or other may write it. Else an Error saying why not
// and what to do, starting with `its` (the words naming the directory).
Expected<Done> check_private_directory(const std::filesystem::path& directory,
                                       const std::string& its);

// `directory` made (mode 0700) when missing, then as check_private_directory; fails with
// "<its> cannot be made (why)" when it cannot be made.
Expected<Done> make_private_directory(const std::filesystem::path& directory,
                                      const std::string& its);

// Who holds a lock another run found taken.
struct LockHolder {
  std::string pid;          // "" when the file holds no process id (yet)
  double held_seconds = 0;  // since the holder took it (the file's last write)
};

// The lock on `path`, with this process's id written into it; nullopt when another process
// holds it, described in `holder`. Only a lock nobody else can take is taken: the directory is
// made (mode 0700) when missing and must be one no other user can write; the file is created
// 0600, and must be a regular file of this user's holding nothing but a process id. flock needs
// only read access, so a lock another user could open would let that user hold it against
// every run. An Error names the file and the fix when any of that is not so.
Expected<std::optional<RunLock>> try_run_lock(const std::string& path, LockHolder& holder);

// The lock on `path`, waited for until `deadline`: runs that read, judge and rewrite one file
// take their turns. The file is trusted as try_run_lock's is (created 0600, a regular file of
// this user's holding a process id; `fix` ends the error when it holds something else), its
// directory as any other output's. nullopt, with `holder` described, when the deadline passed
// first.
Expected<std::optional<RunLock>> wait_for_lock(const std::string& path, const Deadline& deadline,
                                               LockHolder& holder, const std::string& fix);

}  // namespace ibkit
