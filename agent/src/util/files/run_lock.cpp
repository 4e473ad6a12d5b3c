#include "util/files/run_lock.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <signal.h>
#include <string>
#include <string_view>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "util/posix_error.hpp"

namespace ibkit {
namespace {

// A process id and a newline is all a lock file ever holds.
constexpr off_t kMaxLockFileSize = 32;

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// The directory the lock lives in, made 0700 if missing: Done when no other user can create,
// rename or remove entries in it, else why not and what to do, starting with `path`.
Expected<Done> check_directory(const std::string& path) {
  std::filesystem::path directory = std::filesystem::path(path).parent_path();
  if (directory.empty()) directory = ".";
  return make_private_directory(directory, path + ": its directory " + directory.string());
}

// What the open lock file holds: its status and its text, `text_read` false when it is larger
// than a lock file ever is or cannot be read.
struct LockFile {
  struct stat status {};
  std::string text;
  bool text_read = false;
};

std::optional<LockFile> read_lock_file(int fd) {
  LockFile file;
  if (::fstat(fd, &file.status) != 0) return std::nullopt;
  if (file.status.st_size > kMaxLockFileSize) return file;
  char text[kMaxLockFileSize] = {};
  const ssize_t got = ::pread(fd, text, sizeof text, 0);
  file.text_read = got >= 0;
  if (got > 0) file.text.assign(text, static_cast<std::size_t>(got));
  return file;
}

// What every lock ibkit signs starts with: a file that holds a process id without it is some
// other program's pid file, which a --lock pointed at it must not rewrite.
constexpr std::string_view kSignature = "ibkit ";

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// The process id a lock's text names: "ibkit PID\n" as signed, or a bare "PID\n" as ibkit
// before the signature wrote it; "" for an empty file; nullopt for anything else.
std::optional<std::string> lock_pid(std::string_view text, bool& signed_by_ibkit) {
  signed_by_ibkit = text.starts_with(kSignature);
  if (signed_by_ibkit) text.remove_prefix(kSignature.size());
  if (text.ends_with('\n')) text.remove_suffix(1);
  if (text.empty() && !signed_by_ibkit) return std::string();
  if (!all_digits(text)) return std::nullopt;
  return std::string(text);
}

// Whether a bare process id can be an older ibkit's lock: its process is gone, or is ibkit.
// A live process of another name means the file is that program's pid file.
bool bare_pid_is_ibkits(const std::string& pid) {
  if (pid.empty() || pid.size() > 9) return pid.empty();
  const long number = std::stol(pid);
  if (number <= 0) return false;
  if (::kill(static_cast<pid_t>(number), 0) != 0 && errno == ESRCH) return true;
  std::ifstream comm("/proc/" + pid + "/comm");
  std::string name;
  std::getline(comm, name);
  return name == "ibkit";
}

// Done when the open file is a lock this user can trust, else why not, ending with `fix` when it
// holds something else. A file this run did not create is neither written nor narrowed unless
// it is ibkit's lock: signed, empty, or a bare pid of no live process but ibkit's. One ibkit
// signed with a wider mode is narrowed to 0600.
Expected<Done> check_file(int fd, const std::string& path, const std::string& fix) {
  const auto file = read_lock_file(fd);
  if (!file) return posix_error(path, errno);
  if (!S_ISREG(file->status.st_mode)) return Error{path + " is not a regular file"};
  if (file->status.st_uid != ::geteuid()) {
    return Error{path + " belongs to uid " + std::to_string(file->status.st_uid) +
                 ", not to the user running ibkit: remove it"};
  }
  bool signed_by_ibkit = false;
  const auto pid = file->text_read ? lock_pid(file->text, signed_by_ibkit) : std::nullopt;
  if (!pid)
    return Error{path + " holds something other than a process id: not a lock file; " + fix};
  if (!signed_by_ibkit && !bare_pid_is_ibkits(*pid)) {
    return Error{path + " holds the process id of a running program other than ibkit (pid " + *pid +
                 "): another program's pid file, left as it was; " + fix};
  }
  if ((file->status.st_mode & 077) != 0 && ::fchmod(fd, 0600) != 0)
    return Error{path + ": cannot make it 0600 (" + errno_text(errno) + ")"};
  return Done{};
}

// Read again once flock says the lock is taken: the holder may have written its pid, and so
// dated the lock, since check_file read it.
LockHolder holder_of(int fd) {
  LockHolder holder;
  const auto file = read_lock_file(fd);
  if (!file) return holder;
  bool signed_by_ibkit = false;
  holder.pid = lock_pid(file->text, signed_by_ibkit).value_or("");
  holder.held_seconds = std::max(0.0, std::difftime(std::time(nullptr), file->status.st_mtime));
  return holder;
}

// Opens (creating 0600) the lock file at `path`: the file, and the RunLock that closes it, once
// check_file found it one this user can trust.
Expected<RunLock> open_lock_file(const std::string& path, const std::string& fix) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  if (fd < 0) return posix_error(path, errno);
  RunLock lock(fd);
  if (auto checked = check_file(fd, path, fix); !checked) return checked.error();
  return lock;
}

// Writes this process's id into a lock just taken. The id is only for the message another run
// prints: a failure to write it is no reason to give up the lock. The write also dates the lock
// for a run that finds it held too long.
void sign(int fd) {
  const std::string pid = std::string(kSignature) + std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t written = pwrite(fd, pid.data(), pid.size(), 0);
  }
}

}  // namespace

Expected<Done> check_private_directory(const std::filesystem::path& directory,
                                       const std::string& its) {
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) return Error{its + ": " + errno_text(errno)};
  if (!S_ISDIR(status.st_mode)) return Error{its + " is not a directory"};
  if (status.st_uid != ::geteuid() && status.st_uid != 0) {
    return Error{its + " belongs to uid " + std::to_string(status.st_uid) +
                 ": another user could hold the lock; use a directory of your own"};
  }
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return Error{its + " is writable by others (mode " + octal_mode(status.st_mode) +
                 "): anyone could make the lock theirs; use a directory only you can write, as "
                 "the default /run/ibkit"};
  }
  return Done{};
}

Expected<Done> make_private_directory(const std::filesystem::path& directory,
                                      const std::string& its) {
  if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST)
    return Error{its + " cannot be made (" + errno_text(errno) + ")"};
  return check_private_directory(directory, its);
}

RunLock::~RunLock() {
  if (fd_ >= 0) close(fd_);
}

Expected<std::optional<RunLock>> try_run_lock(const std::string& path, LockHolder& holder) {
  if (auto checked = check_directory(path); !checked) return checked.error();
  auto lock = open_lock_file(path, "point --lock at a file of its own");
  if (!lock) return lock.error();
  if (flock(lock->fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return posix_error(path + ": flock", errno);
    holder = holder_of(lock->fd());
    return std::optional<RunLock>();
  }
  sign(lock->fd());
  return std::optional<RunLock>(std::move(*lock));
}

Expected<std::optional<RunLock>> wait_for_lock(const std::string& path, const Deadline& deadline,
                                               LockHolder& holder, const std::string& fix) {
  auto lock = open_lock_file(path, fix);
  if (!lock) return lock.error();
  while (flock(lock->fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return posix_error(path + ": flock", errno);
    if (deadline.expired()) {
      holder = holder_of(lock->fd());
      return std::optional<RunLock>();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(20, deadline.remaining_ms())));
  }
  sign(lock->fd());
  return std::optional<RunLock>(std::move(*lock));
}

}  // namespace ibkit
