#include "util/process/launched_child.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "util/posix_error.hpp"
#include "util/process/child_process.hpp"

extern char** environ;

namespace ibkit {
namespace {

// From SIGTERM to SIGKILL when one child is stopped.
constexpr std::chrono::seconds kTermGrace{3};

}  // namespace

Expected<LaunchedChild> LaunchedChild::start(const std::vector<std::string>& argv) {
  if (argv.empty()) return Error{"LaunchedChild: no program given"};
  int input[2];
  int error[2];
  if (pipe2(input, O_CLOEXEC) != 0) return posix_error("pipe", errno);
  FileDescriptor input_read(input[0]), input_write(input[1]);
  if (pipe2(error, O_CLOEXEC) != 0) return posix_error("pipe", errno);
  FileDescriptor error_read(error[0]), error_write(error[1]);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_adddup2(&actions, input_read.get(), STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, error_write.get(), STDERR_FILENO);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned == ENOENT) return Error{argv[0] + ": not found"};
  if (spawned != 0) return posix_error(argv[0], spawned);
  // A child that ended makes a write fail with EPIPE, not kill this process with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  fcntl(error_read.get(), F_SETFL, fcntl(error_read.get(), F_GETFL) | O_NONBLOCK);
  return LaunchedChild(pid, std::move(input_write), std::move(error_read));
}

LaunchedChild::~LaunchedChild() {
  if (pid_ > 0 && status_ < 0) stop(std::chrono::milliseconds(0));
}

Expected<Done> LaunchedChild::write_input(std::string_view text) {
  while (!text.empty()) {
    const ssize_t wrote = write(input_.get(), text.data(), text.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) return posix_error("writing to the child's standard input", errno);
    text.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return Done{};
}

bool LaunchedChild::read_errors(std::string& into, std::size_t cap) {
  if (!error_.valid()) return false;
  std::array<char, 4096> buffer;
  while (true) {
    const ssize_t got = read(error_.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno == EAGAIN;
    if (got == 0) {
      error_.reset();
      return false;
    }
    const std::size_t room = into.size() < cap ? cap - into.size() : 0;
    into.append(buffer.data(), std::min(static_cast<std::size_t>(got), room));
  }
}

int LaunchedChild::poll_exit() {
  if (status_ >= 0 || pid_ <= 0) return status_;
  int status = 0;
  pid_t done = 0;
  do {
    done = waitpid(pid_, &status, WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done == pid_) status_ = decode_wait_status(status);
  return status_;
}

void LaunchedChild::signal_group(int signal) {
  if (pid_ > 0 && poll_exit() < 0) kill(-pid_, signal);
}

int LaunchedChild::wait_for_end() {
  if (pid_ <= 0 || status_ >= 0) return status_;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  status_ = decode_wait_status(status);
  return status_;
}

int LaunchedChild::stop(std::chrono::milliseconds grace) {
  LaunchedChild* self = this;
  return stop_together(std::span(&self, 1), grace, kTermGrace)[0].exit_status;
}

std::vector<StopOutcome> stop_together(std::span<LaunchedChild* const> children,
                                       std::chrono::milliseconds grace,
                                       std::chrono::milliseconds term_grace) {
  std::vector<StopOutcome> outcomes(children.size());
  // True once every child has ended, each polled once a round; false when `until` passed first.
  auto all_ended_by = [&](std::chrono::steady_clock::time_point until) {
    while (true) {
      bool running = false;
      for (auto* child : children) running = running || child->poll_exit() < 0;
      if (!running) return true;
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  for (auto* child : children) child->close_input();
  if (!all_ended_by(std::chrono::steady_clock::now() + grace)) {
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (children[i]->poll_exit() >= 0) continue;
      outcomes[i].signalled = true;
      children[i]->signal_group(SIGTERM);
    }
    if (!all_ended_by(std::chrono::steady_clock::now() + term_grace)) {
      for (auto* child : children) child->signal_group(SIGKILL);
    }
  }
  for (std::size_t i = 0; i < children.size(); ++i) {
    outcomes[i].exit_status = children[i]->wait_for_end();
  }
  return outcomes;
}

}  // namespace ibkit
