#pragma once

#include <string>

namespace ibkit {

// Writes `content` to `path` through a temporary file and a rename, so a reader never sees half
// a file. The temporary is new (O_EXCL, no link followed) under a random hidden name beside
// `path`, so a link planted there redirects nothing and two writers of one path each move in
// their own whole file; its mode is what the umask allows; it is synced before the rename,
// the directory after, and removed on every failure. Returns "" on success, else a one-line
// message that starts with the path.
std::string write_file_atomically(const std::string& path, const std::string& content);

// Whether a file can be made in `dir`, by making one as write_file_atomically does (nothing at a
// fixed name is opened or followed) and removing it: "" when it can, else errno's words.
std::string probe_writable_directory(const std::string& dir);

}  // namespace ibkit
