#include "sysfs/sysfs_root.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "util/posix_error.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxAttributeBytes = 64 * 1024;

// Closes a file descriptor when it goes out of scope.
class OpenFile {
 public:
  explicit OpenFile(int fd) : fd_(fd) {}
  ~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// What a file of this mode is, in a message.
std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Why `file` cannot be stat'ed, in the words of read_attribute.
Error stat_error(const fs::path& file, int errnum) {
  struct stat link {};
  if (errnum == ENOENT && ::lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    return Error{"a symlink to nothing"};
  }
  if (errnum == ENOENT) return Error{"absent"};
  return posix_error("unreadable", errnum);
}

}  // namespace

Expected<SysfsRoot> SysfsRoot::open(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return Error{"--root " + root.string() +
                 ": not a directory; give the root of a sysfs tree (\"/\" for this machine)"};
  }
  fs::path canonical = fs::canonical(root, ec);
  if (ec) return Error{"--root " + root.string() + ": " + ec.message()};
  return SysfsRoot(canonical, canonical == fs::path("/"));
}

fs::path SysfsRoot::full(std::string_view relative) const {
  return root_ / fs::path(relative).relative_path();
}

std::optional<std::string> SysfsRoot::read(std::string_view relative) const {
  auto text = read_attribute(relative);
  if (!text) return std::nullopt;
  return std::move(*text);
}

Expected<std::string> SysfsRoot::read_attribute(std::string_view relative) const {
  const fs::path file = full(relative);
  // Looked at before it is opened: opening a FIFO waits for a writer, a device may act.
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return stat_error(file, errno);
  if (!S_ISREG(status.st_mode)) return Error{kind_of(status.st_mode)};
  OpenFile in(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (in.fd() < 0) return posix_error("unreadable", errno);
  // And again once open, in case it was swapped in between.
  if (::fstat(in.fd(), &status) != 0) return posix_error("unreadable", errno);
  if (!S_ISREG(status.st_mode)) return Error{kind_of(status.st_mode)};
  std::string content(kMaxAttributeBytes + 1, '\0');
  std::size_t filled = 0;
  while (filled < content.size()) {
    const ssize_t got = ::read(in.fd(), content.data() + filled, content.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return posix_error("unreadable", errno);
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  content.resize(filled);
  if (content.size() > kMaxAttributeBytes) return Error{"larger than 64 KiB"};
  if (content.find('\0') != std::string::npos) return Error{"not text (a NUL byte)"};
  return std::string(trim(content));
}

std::vector<std::string> SysfsRoot::list(std::string_view relative) const {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(full(relative), ec);
  if (ec) return names;
  for (const auto& entry : it) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

Expected<std::vector<std::string>> SysfsRoot::list_entries(std::string_view relative) const {
  const fs::path directory = full(relative);
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) return stat_error(directory, errno);
  if (!S_ISDIR(status.st_mode)) return Error{"not a directory (" + kind_of(status.st_mode) + ")"};
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) return Error{"unreadable: " + ec.message()};
  std::sort(names.begin(), names.end());
  return names;
}

bool SysfsRoot::present(std::string_view relative) const {
  struct stat status {};
  return ::lstat(full(relative).c_str(), &status) == 0;
}

bool SysfsRoot::exists(std::string_view relative) const {
  std::error_code ec;
  return fs::exists(full(relative), ec);
}

bool SysfsRoot::is_directory(std::string_view relative) const {
  std::error_code ec;
  return fs::is_directory(full(relative), ec);
}

std::optional<std::string> SysfsRoot::link_target_name(std::string_view relative) const {
  std::error_code ec;
  fs::path target = fs::read_symlink(full(relative), ec);
  if (ec) return std::nullopt;
  return target.filename().string();
}

std::optional<std::string> SysfsRoot::resolve(std::string_view relative) const {
  std::error_code ec;
  fs::path resolved = fs::canonical(full(relative), ec);
  if (ec) return std::nullopt;
  fs::path inside = resolved.lexically_relative(root_);
  if (inside.empty() || *inside.begin() == "..") return std::nullopt;
  return inside.string();
}

}  // namespace ibkit
