#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

#include "util/expected.hpp"
#include "util/files/file_descriptor.hpp"

namespace ibkit {

// A child that keeps running while its parent talks to it: what a launcher (ssh, srun) starts
// for a server on another node. Its stdin is a pipe this side writes to, its stderr a pipe this
// side reads (non-blocking), its stdout /dev/null; it runs in a process group of its own, so a
// Ctrl-C at the terminal reaches the parent alone and the parent decides how the child ends.
class LaunchedChild {
 public:
  // Starts argv[0] (searched on PATH when it has no '/') with `argv`, directly (no shell).
  // Fails naming the program when it cannot start ("not found" when it is missing).
  static Expected<LaunchedChild> start(const std::vector<std::string>& argv);

  LaunchedChild(LaunchedChild&& other) noexcept
      : pid_(std::exchange(other.pid_, -1)),
        status_(other.status_),
        input_(std::move(other.input_)),
        error_(std::move(other.error_)) {}
  LaunchedChild& operator=(LaunchedChild&&) = delete;
  // A child still running is stopped as stop() does, with no grace.
  ~LaunchedChild();

  // Writes all of `text` to the child's stdin; fails when the child has closed it.
  Expected<Done> write_input(std::string_view text);
  // Ends the child's stdin (EOF): what a server started with --until-stdin-closes stops on.
  void close_input() { input_.reset(); }
  int input_fd() const { return input_.get(); }
  int error_fd() const { return error_.get(); }
  pid_t pid() const { return pid_; }

  // Appends what the child's stderr holds now (at most `cap` bytes kept in all); false once the
  // child has closed it.
  bool read_errors(std::string& into, std::size_t cap);
  // The exit status (decode_wait_status) when the child has ended, -1 while it runs.
  int poll_exit();
  // Closes its stdin and waits `grace` for it to end; then SIGTERM to its group and 3 s more;
  // then SIGKILL. Returns its exit status; reaped either way.
  int stop(std::chrono::milliseconds grace);

 private:
  LaunchedChild(pid_t pid, FileDescriptor input, FileDescriptor error)
      : pid_(pid), input_(std::move(input)), error_(std::move(error)) {}
  bool wait_for_exit(std::chrono::milliseconds wait);

  pid_t pid_ = -1;
  int status_ = -1;  // set once reaped
  FileDescriptor input_;
  FileDescriptor error_;
};

}  // namespace ibkit
