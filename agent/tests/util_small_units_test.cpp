// The small utilities on their own: errno words, the host name, an owned descriptor, JSON
// parsed within a depth, and an input's mistakes named in one line.
#include <cerrno>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "util/files/bounded_json.hpp"
#include "util/files/file_descriptor.hpp"
#include "util/hostname.hpp"
#include "util/mistakes.hpp"
#include "util/posix_error.hpp"

using namespace ibkit;

TEST_CASE("posix error: errno's words, and an Error that starts with its context", "[util]") {
  CHECK(errno_text(ENOENT) == "No such file or directory");
  const Error error = posix_error("/etc/ibkit/ibkit.toml", EACCES);
  CHECK(error.message == "/etc/ibkit/ibkit.toml: Permission denied");
}

TEST_CASE("local host name: what the kernel says, never empty", "[util]") {
  char name[256] = {};
  REQUIRE(gethostname(name, sizeof name - 1) == 0);
  CHECK(local_hostname() == std::string(name));
  CHECK_FALSE(local_hostname().empty());
}

TEST_CASE("file descriptor: closed when dropped or reset, handed on by a move or release",
          "[util]") {
  int raw = -1;
  {
    FileDescriptor fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    REQUIRE(fd.valid());
    raw = fd.get();
    FileDescriptor moved(std::move(fd));
    CHECK_FALSE(fd.valid());
    CHECK(moved.get() == raw);
    CHECK(::fcntl(raw, F_GETFD) != -1);
  }
  CHECK(::fcntl(raw, F_GETFD) == -1);  // closed with its owner
  FileDescriptor kept(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int released = kept.release();
  CHECK_FALSE(kept.valid());
  CHECK(::fcntl(released, F_GETFD) != -1);  // the caller owns it now
  ::close(released);
  FileDescriptor reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int before = reset.get();
  reset.reset();
  CHECK_FALSE(reset.valid());
  CHECK(::fcntl(before, F_GETFD) == -1);
}

TEST_CASE("bounded json: a document within the depth parses, a deeper or broken one is refused",
          "[util]") {
  auto fine = parse_json_within_depth(R"({"a": [1, {"b": 2}]})", 3);
  REQUIRE(fine);
  CHECK((*fine)["a"][1]["b"] == 2);
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  auto refused = parse_json_within_depth(deep, 64);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("nested deeper than 64 levels"));
  auto broken = parse_json_within_depth("{\"a\": ", 8);
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains("not JSON"));
}

TEST_CASE("mistakes: every one up to five in full, then how many more, on one line", "[util]") {
  Mistakes mistakes;
  CHECK_FALSE(mistakes.any());
  mistakes.add("a.toml:1:1: one");
  CHECK(mistakes.any());
  CHECK(mistakes.error().message == "a.toml:1:1: one");
  for (int i = 2; i <= 7; ++i) mistakes.add("a.toml:" + std::to_string(i) + ":1: more");
  CHECK(mistakes.error().message ==
        "a.toml:1:1: one; a.toml:2:1: more; a.toml:3:1: more; a.toml:4:1: more; a.toml:5:1: more; "
        "and 2 more");
}
