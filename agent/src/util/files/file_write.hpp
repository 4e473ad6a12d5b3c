#pragma once

#include <string>
#include <utility>

#include "util/expected.hpp"

namespace ibkit {

// A file written whole under a temporary name beside its path, as write_file_atomically makes
// it, and not yet in place: move_into_place() renames it there. Dropped before that, the
// temporary is removed. Several staged files moved in one after another replace a set of files
// with no window in which one of them is missing or half written.
class StagedFile {
 public:
  StagedFile(std::string path, std::string temporary)
      : path_(std::move(path)), temporary_(std::move(temporary)) {}
  ~StagedFile();
  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&&) = delete;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  const std::string& path() const { return path_; }
  // Done once the file is at its path (the directory synced), else an Error whose one-line
  // message starts with the path; the temporary is gone either way.
  Expected<Done> move_into_place();

 private:
  std::string path_;
  std::string temporary_;  // "" once moved or removed
};

// `content` written and synced under a new temporary beside `path` (see write_file_atomically),
// or an Error whose message starts with the path; nothing is left behind on failure.
Expected<StagedFile> stage_file(const std::string& path, const std::string& content);

// Writes `content` to `path` through a temporary file and a rename, so a reader never sees half
// a file. The temporary is new (O_EXCL, no link followed) under a random hidden name beside
// `path`, so a link planted there redirects nothing and two writers of one path each move in
// their own whole file; its mode is what the umask allows; it is synced before the rename,
// the directory after, and removed on every failure. An Error's one-line message starts with the
// path.
Expected<Done> write_file_atomically(const std::string& path, const std::string& content);

// Whether a file can be made in `dir`, by making one as write_file_atomically does (nothing at a
// fixed name is opened or followed) and removing it: Done when it can, else an Error of errno's
// words.
Expected<Done> probe_writable_directory(const std::string& dir);

}  // namespace ibkit
