#include "util/process/child_process.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/files/file_descriptor.hpp"
#include "util/posix_error.hpp"

extern char** environ;

namespace ibkit {
namespace {

constexpr std::size_t kOutputCap = 1 << 20;

// The two pipes a child writes into, stdout's and stderr's, each end closed on exec.
struct OutputPipes {
  FileDescriptor out_read, out_write, err_read, err_write;
  // False, with errno set, when a pipe cannot be made.
  bool open() {
    int out[2];
    int err[2];
    if (pipe2(out, O_CLOEXEC) != 0) return false;
    out_read = FileDescriptor(out[0]);
    out_write = FileDescriptor(out[1]);
    if (pipe2(err, O_CLOEXEC) != 0) return false;
    err_read = FileDescriptor(err[0]);
    err_write = FileDescriptor(err[1]);
    return true;
  }
};

// posix_spawn's attribute and file-action objects, destroyed on exit.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// Appends what `fd` has to `into` (up to `cap` bytes); false once the writer closed it.
bool drain_into(int fd, std::string& into, std::size_t cap) {
  std::array<char, 4096> buffer;
  ssize_t got = read(fd, buffer.data(), buffer.size());
  if (got < 0) return errno == EINTR || errno == EAGAIN;
  if (got == 0) return false;
  if (into.size() < cap)
    into.append(buffer.data(), std::min(static_cast<std::size_t>(got), cap - into.size()));
  return true;
}

// How often a child run with a stop question asks it.
constexpr int kStopAskedEveryMs = 100;

// Reads the child's two streams (each up to `cap` bytes) until both close, then reaps it, all
// by the deadline and while `stop` (when given) says no; past either the child's process group
// is killed and reaped.
Expected<ChildOutput> collect_child(pid_t pid, int out_fd, int err_fd, const Deadline& deadline,
                                    const std::string& name, std::size_t cap,
                                    const std::function<bool()>& stop) {
  ChildOutput output;
  bool out_open = true;
  bool err_open = true;
  auto stopped = [&] { return stop && stop(); };
  auto kill_and_reap = [&](const std::string& why) {
    int status = 0;
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return Error{name + ": " + why + "; killed it"};
  };
  while (out_open || err_open) {
    if (deadline.expired() || stopped()) break;
    std::array<pollfd, 2> fds{pollfd{out_open ? out_fd : -1, POLLIN, 0},
                              pollfd{err_open ? err_fd : -1, POLLIN, 0}};
    const int wait_ms =
        stop ? std::min(deadline.remaining_ms(), kStopAskedEveryMs) : deadline.remaining_ms();
    const int ready = poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (out_open && fds[0].revents != 0) out_open = drain_into(out_fd, output.out, cap);
    if (err_open && fds[1].revents != 0) err_open = drain_into(err_fd, output.err, kOutputCap);
  }

  int status = 0;
  if (out_open || err_open) {
    // The deadline passed, the stop came (or poll failed) with the child still writing or alive.
    return kill_and_reap(stopped() ? "stopped" : "did not finish in time");
  }
  // Both streams closed: wait for the exit, still within the deadline.
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return posix_error("waitpid " + name, errno);
    if (deadline.expired()) return kill_and_reap("did not finish in time");
    if (stopped()) return kill_and_reap("stopped");
    usleep(10000);
  }
  output.exit_status = decode_wait_status(status);
  return output;
}

}  // namespace

int decode_wait_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

Expected<ChildOutput> run_child(const std::vector<std::string>& argv, const Deadline& deadline,
                                const std::function<bool()>& stop) {
  if (argv.empty()) return Error{"run_child: no program given"};
  OutputPipes pipes;
  if (!pipes.open()) return posix_error("pipe", errno);
  FileDescriptor &out_read = pipes.out_read, &out_write = pipes.out_write;
  FileDescriptor &err_read = pipes.err_read, &err_write = pipes.err_write;

  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, out_write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, err_write.get(), STDERR_FILENO);
  // A group of its own, so a deadline kills what the child started too (a script's sleep).
  posix_spawnattr_setpgroup(&setup.attributes, 0);
  posix_spawnattr_setflags(&setup.attributes, POSIX_SPAWN_SETPGROUP);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned =
      posix_spawnp(&pid, args[0], &setup.actions, &setup.attributes, args.data(), environ);
  if (spawned != 0) {
    if (spawned == ENOENT) return Error{argv[0] + ": not found"};
    return posix_error(argv[0], spawned);
  }
  out_write.reset();
  err_write.reset();

  return collect_child(pid, out_read.get(), err_read.get(), deadline, argv[0], kOutputCap, stop);
}

Expected<ChildOutput> run_forked(const std::string& name, const std::function<int(int)>& work,
                                 const Deadline& deadline, std::size_t out_cap) {
  OutputPipes pipes;
  if (!pipes.open()) return posix_error("pipe", errno);
  FileDescriptor &out_read = pipes.out_read, &out_write = pipes.out_write;
  FileDescriptor &err_read = pipes.err_read, &err_write = pipes.err_write;
  std::fflush(nullptr);  // what stdio holds would otherwise be written twice
  const pid_t pid = fork();
  if (pid < 0) return posix_error("fork for " + name, errno);
  if (pid == 0) {
    setpgid(0, 0);
    int status = 4;
    if (dup2(err_write.get(), STDERR_FILENO) >= 0) {
      try {
        status = work(out_write.get());
      } catch (...) {
        status = 4;
      }
    }
    std::fflush(nullptr);
    _exit(status);
  }
  setpgid(pid, pid);  // both sides set it: whichever runs first, the kill reaches the group
  out_write.reset();
  err_write.reset();
  return collect_child(pid, out_read.get(), err_read.get(), deadline, name, out_cap, {});
}

}  // namespace ibkit
