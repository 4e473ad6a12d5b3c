#pragma once

#include <chrono>
#include <span>
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
  // Sends `signal` to the child's process group; nothing once it has been reaped.
  void signal_group(int signal);
  // Waits until the child has ended, blocking, and returns its exit status.
  int wait_for_end();

 private:
  LaunchedChild(pid_t pid, FileDescriptor input, FileDescriptor error)
      : pid_(pid), input_(std::move(input)), error_(std::move(error)) {}

  pid_t pid_ = -1;
  int status_ = -1;  // set once reaped
  FileDescriptor input_;
  FileDescriptor error_;
};

// How one child of stop_together() ended.
struct StopOutcome {
  int exit_status = -1;    // as poll_exit() gives it
  bool signalled = false;  // it outlived the grace and was terminated (or killed)
};

// Stops `children` together, however many there are: closes every stdin and waits up to `grace`
// for all of them at once; sends SIGTERM to the group of each still running and waits up to
// `term_grace` for all of them at once; then SIGKILLs the rest. Every child is reaped; one
// already reaped is left as it is. Takes at most about grace + term_grace in all. Returns, per
// child in order, its exit status and whether it had to be signalled.
std::vector<StopOutcome> stop_together(std::span<LaunchedChild* const> children,
                                       std::chrono::milliseconds grace,
                                       std::chrono::milliseconds term_grace);

}  // namespace ibkit
