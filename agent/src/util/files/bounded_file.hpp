#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace ibkit {

// What a user-given file is to its reader: how messages name it and the most it may hold.
struct FileLimit {
  std::string_view label;  // put before the path in messages: "--config", "key file"; may be ""
  std::size_t max_bytes;   // a larger file is refused before it is read
  std::string_view hint;   // what the file should be, for the size message: "a key is one line"
};

// A file's whole content, and its permission bits and owner for a reader that checks them (a
// key file).
struct BoundedFile {
  std::string bytes;
  unsigned mode = 0;   // st_mode & 07777
  unsigned owner = 0;  // st_uid
};

// Reads all of `path`, which must be a regular file of at most limit.max_bytes. Never blocks:
// a FIFO, device, socket or directory is refused before any read. A read error is an error,
// never an empty file. Fails with one line that starts with "LABEL PATH" and names the fix.
Expected<BoundedFile> read_bounded_file(const std::string& path, const FileLimit& limit);

// "4096 bytes", "1 MiB", "2 GiB": a size as a person writes it.
std::string size_text(std::size_t bytes);

}  // namespace ibkit
