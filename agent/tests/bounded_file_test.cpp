#include "util/files/bounded_file.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "guarded_fifo.hpp"

namespace ibkit {
namespace {

constexpr FileLimit kSmall{"--thing", 64, "a thing is short"};

std::string scratch_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ibkit-bounded-" + name + "-" + std::to_string(getpid()));
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

std::string read_error(const std::string& path, const FileLimit& limit = kSmall) {
  auto read = read_bounded_file(path, limit);
  REQUIRE_FALSE(read.ok());
  return read.error().message;
}

}  // namespace

TEST_CASE("a regular file within its cap is read whole, with its permission bits", "[util]") {
  const auto path = scratch_file("ok", std::string("a\0b\n", 4));
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto read = read_bounded_file(path, kSmall);
  REQUIRE(read.ok());
  CHECK(read->bytes == std::string("a\0b\n", 4));
  CHECK(read->mode == 0600);
  std::filesystem::remove(path);

  const auto empty = scratch_file("empty", "");
  auto nothing = read_bounded_file(empty, kSmall);
  REQUIRE(nothing.ok());
  CHECK(nothing->bytes.empty());
  std::filesystem::remove(empty);
}

TEST_CASE("a FIFO is refused at once, without waiting for a writer", "[util]") {
  test::GuardedFifo fifo("bounded-fifo");
  const auto start = std::chrono::steady_clock::now();
  CHECK(read_error(fifo.path()) ==
        "--thing " + fifo.path() + " is a FIFO, not a regular file; give a file");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("a device or a directory is refused before any read", "[util]") {
  CHECK(read_error("/dev/zero") ==
        "--thing /dev/zero is a character device, not a regular file; give a file");
  const auto dir = std::filesystem::temp_directory_path().string();
  CHECK(read_error(dir) == "--thing " + dir + " is a directory, not a regular file; give a file");
}

TEST_CASE("a file over its cap is refused, naming the file, the cap and the fix", "[util]") {
  const auto path = scratch_file("big", std::string(65, 'x'));
  CHECK(read_error(path) == "--thing " + path +
                                " is larger than 64 bytes, the most ibkit reads from it; a thing "
                                "is short");
  std::filesystem::remove(path);
  const auto exact = scratch_file("exact", std::string(64, 'x'));
  CHECK(read_bounded_file(exact, kSmall).ok());
  std::filesystem::remove(exact);
}

TEST_CASE("a file that says it is empty but is not (procfs) is still held to the cap", "[util]") {
  // /proc files report a size of 0; their content is only known by reading.
  auto status = read_bounded_file("/proc/self/status", {"", 1 << 20, ""});
  REQUIRE(status.ok());
  CHECK_THAT(status->bytes, Catch::Contains("Name:"));
  CHECK_THAT(read_error("/proc/self/status"), Catch::Contains("is larger than 64 bytes"));
}

TEST_CASE("a read error is an error, never an empty file", "[util]") {
  // A regular file whose read fails: offset 0 of a process's memory is not mapped.
  CHECK(read_error("/proc/self/mem") == "--thing /proc/self/mem: cannot read: Input/output error");
  CHECK(read_error("/nonexistent/file") ==
        "--thing /nonexistent/file: cannot read: No such file or directory");
}

TEST_CASE("without a label the message starts with the path", "[util]") {
  CHECK(read_error("/dev/zero", {"", 64, ""}) ==
        "/dev/zero is a character device, not a regular file; give a file");
}

TEST_CASE("sizes read as a person writes them", "[util]") {
  CHECK(size_text(4096) == "4096 bytes");
  CHECK(size_text(std::size_t{1} << 20) == "1 MiB");
  CHECK(size_text(std::size_t{2} << 30) == "2 GiB");
  CHECK(size_text((std::size_t{1} << 20) + 1) == "1048577 bytes");
}

}  // namespace ibkit
