// A launched server's key: the first line of its standard input (a pipe from ssh or srun).
#include <array>
#include <chrono>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "control/auth.hpp"

using namespace std::chrono_literals;

namespace {

// A pipe whose write end is closed by close_writer() or the destructor.
class Pipe {
 public:
  Pipe() { REQUIRE(pipe(ends_.data()) == 0); }
  ~Pipe() {
    close_writer();
    close(ends_[0]);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int reader() const { return ends_[0]; }
  void write_text(const std::string& text) {
    REQUIRE(write(ends_[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  void close_writer() {
    if (ends_[1] >= 0) close(ends_[1]);
    ends_[1] = -1;
  }

 private:
  std::array<int, 2> ends_{-1, -1};
};

const std::string kKey(64, 'a');

}  // namespace

TEST_CASE("a key line is read up to its newline and no further", "[control]") {
  Pipe pipe;
  pipe.write_text(kKey + "\nwhat the lifeline carries after it");
  auto key = ibkit::read_key_line(pipe.reader(), 1s, "standard input");
  REQUIRE(key.ok());
  CHECK(key->bytes == kKey);
  std::array<char, 8> rest{};
  REQUIRE(read(pipe.reader(), rest.data(), 4) == 4);
  CHECK(std::string(rest.data(), 4) == "what");
}

TEST_CASE("a key line that never comes, ends early or is short is refused, saying so",
          "[control]") {
  Pipe silent;
  const auto start = std::chrono::steady_clock::now();
  auto late = ibkit::read_key_line(silent.reader(), 200ms, "standard input");
  REQUIRE_FALSE(late.ok());
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  CHECK(late.error().message ==
        "no key on standard input within 0.2 s; send one line, e.g. from: openssl rand -hex 32");

  Pipe closed;
  closed.close_writer();
  auto ended = ibkit::read_key_line(closed.reader(), 1s, "standard input");
  REQUIRE_FALSE(ended.ok());
  CHECK(ended.error().message ==
        "standard input ended before a key; send one line, e.g. from: openssl rand -hex 32");

  Pipe short_key;
  short_key.write_text("abc\n");
  auto too_short = ibkit::read_key_line(short_key.reader(), 1s, "standard input");
  REQUIRE_FALSE(too_short.ok());
  CHECK(too_short.error().message ==
        "the key on standard input holds 3 bytes; a key needs at least 32 (a short key can be "
        "guessed); send one line, e.g. from: openssl rand -hex 32");

  Pipe endless;
  endless.write_text(std::string(5000, 'k'));
  auto too_long = ibkit::read_key_line(endless.reader(), 1s, "standard input");
  REQUIRE_FALSE(too_long.ok());
  CHECK(too_long.error().message ==
        "the key on standard input is longer than 4096 bytes; send one line, e.g. from: "
        "openssl rand -hex 32");
}

TEST_CASE("a key line without its newline counts when the stream ends", "[control]") {
  Pipe pipe;
  pipe.write_text(kKey);
  pipe.close_writer();
  auto key = ibkit::read_key_line(pipe.reader(), 1s, "standard input");
  REQUIRE(key.ok());
  CHECK(key->bytes == kKey);
}
