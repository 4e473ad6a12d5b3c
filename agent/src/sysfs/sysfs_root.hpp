#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace ibkit {

// The narrow window through which the agent sees the machine's files: sysfs, procfs and a few
// captured command outputs, all relative to a root directory. "/" is the live machine; a
// fixture tree copied from a real machine (tests/fixtures/sysfs/<name>) is a test.
class SysfsRoot {
 public:
  // Opens `root`; fails with a message naming the path when it is not a readable directory.
  static Expected<SysfsRoot> open(const std::filesystem::path& root);

  const std::filesystem::path& path() const { return root_; }
  bool is_live_system() const { return live_; }

  // Returns the file's text with surrounding whitespace trimmed; nullopt when the file is
  // absent, unreadable, a directory, or not text (a NUL byte, or larger than 64 KiB).
  std::optional<std::string> read(std::string_view relative) const;

  // read(), saying what is there instead when it fails: "absent", "a symlink to nothing",
  // "a directory", "a FIFO", "a socket", "a device", "unreadable: <errno text>", "not text (a
  // NUL byte)", "larger than 64 KiB". Never blocks: a FIFO or device is never opened, and the
  // file is opened non-blocking.
  Expected<std::string> read_attribute(std::string_view relative) const;

  // Returns the names in a directory, sorted; empty when it is absent or unreadable.
  std::vector<std::string> list(std::string_view relative) const;

  // list(), failing with what is there instead when it cannot be listed (as read_attribute
  // names it: "absent", "a symlink to nothing", "not a directory", "unreadable: ...").
  Expected<std::vector<std::string>> list_entries(std::string_view relative) const;

  // Whether anything is at `relative`, a symlink to nothing included.
  bool present(std::string_view relative) const;

  bool exists(std::string_view relative) const;
  bool is_directory(std::string_view relative) const;

  // Returns the last path component that a symlink points to (a driver's name, say);
  // nullopt when `relative` is not a symlink.
  std::optional<std::string> link_target_name(std::string_view relative) const;

  // Returns `relative` with every symlink resolved, as a path relative to the root; nullopt
  // when it does not resolve or resolves outside the root.
  std::optional<std::string> resolve(std::string_view relative) const;

 private:
  SysfsRoot(std::filesystem::path root, bool live) : root_(std::move(root)), live_(live) {}
  std::filesystem::path full(std::string_view relative) const;

  std::filesystem::path root_;
  bool live_;
};

}  // namespace ibkit
