#include "run_ibkit.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "build_paths.hpp"

namespace ibkit::test {
namespace {

// AddressSanitizer reserves terabytes of address space for its shadow memory at start-up, so
// under an address-space cap the binary aborts before main. Its builds run without the cap
// (the normal build's run of the same test still holds the input to it).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

}  // namespace

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Outcome run_ibkit(const std::string& arguments, const RunLimits& limits) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem = "ibkit-cli-" + std::to_string(getpid());
  const auto out_file = dir / (stem + ".out");
  const auto err_file = dir / (stem + ".err");
  const std::string memory_cap =
      limits.memory_mib > 0 && !kAddressSanitizer
          ? "ulimit -v " + std::to_string(limits.memory_mib * 1024) + "; "
          : "";
  std::string file_cap;
  if (limits.open_files > 0) {
    // The soft limit first: a hard limit below the soft one is refused.
    const int soft = limits.open_files_soft > 0 ? limits.open_files_soft : limits.open_files;
    file_cap = "ulimit -Sn " + std::to_string(soft) + " && ulimit -Hn " +
               std::to_string(limits.open_files) + " && ";
  }
  const std::string command = memory_cap + file_cap + "timeout " + std::to_string(limits.seconds) +
                              " " + std::string(ibkit::test::ibkit_binary()) + " " + arguments +
                              " >" + out_file.string() + " 2>" + err_file.string() + " </dev/null";
  int status = std::system(command.c_str());
  Outcome outcome;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = read_text(out_file);
  outcome.err = read_text(err_file);
  std::filesystem::remove(out_file);
  std::filesystem::remove(err_file);
  return outcome;
}

StoppedOutcome run_ibkit_stopped(const std::string& arguments, const std::string& once_said,
                                 int signal, int seconds) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem = "ibkit-stopped-" + std::to_string(getpid());
  const auto out_file = dir / (stem + ".out");
  const auto err_file = dir / (stem + ".err");
  const std::string command = "exec " + std::string(ibkit::test::ibkit_binary()) + " " + arguments +
                              " >" + out_file.string() + " 2>" + err_file.string() + " </dev/null";
  using Clock = std::chrono::steady_clock;
  const pid_t child = fork();
  if (child == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  StoppedOutcome stopped;
  if (child < 0) return stopped;
  auto ended = [&](int& status) { return waitpid(child, &status, WNOHANG) == child; };
  int status = 0;
  bool done = false;
  const auto said_by = Clock::now() + std::chrono::seconds(seconds);
  while (!(done = ended(status)) && Clock::now() < said_by &&
         read_text(err_file).find(once_said) == std::string::npos)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto signalled = Clock::now();
  if (!done) {
    kill(child, signal);
    const auto end_by = signalled + std::chrono::seconds(seconds);
    while (!(done = ended(status)) && Clock::now() < end_by)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
    }
  }
  stopped.seconds_to_end = std::chrono::duration<double>(Clock::now() - signalled).count();
  stopped.outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  stopped.outcome.out = read_text(out_file);
  stopped.outcome.err = read_text(err_file);
  std::filesystem::remove(out_file);
  std::filesystem::remove(err_file);
  return stopped;
}

std::string unwrapped(const std::string& text) {
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size() && text[i + 1] == ' ') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      joined += ' ';
    } else {
      joined += text[i];
    }
  }
  return joined;
}

}  // namespace ibkit::test
