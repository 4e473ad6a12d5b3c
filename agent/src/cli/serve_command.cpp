#include "cli/serve_command.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <ostream>
#include <string_view>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/server_sides.hpp"
#include "control/socket.hpp"
#include "util/exit_codes.hpp"
#include "util/posix_error.hpp"
#include "util/process/service_ready.hpp"

namespace ibkit {
namespace {

// The write end of the pipe that SIGTERM and SIGINT write to; one server per process.
std::atomic<int> stop_pipe_write{-1};

extern "C" void on_stop_signal(int /*signal*/) {
  const int fd = stop_pipe_write.load();
  char byte = 1;
  if (fd >= 0) [[maybe_unused]]
    auto written = write(fd, &byte, 1);
}

// How long a launched server waits for its key on standard input.
constexpr std::chrono::seconds kKeyLineWait{30};
constexpr const char* kStdinKey = "-";

// Set when standard input ended and that stopped the server (--until-stdin-closes).
std::atomic<bool> stdin_closed{false};

// How long a server whose standard input closed lets a session in progress end. A session that
// drives a test (a sweep's pair) ends only with its test: without this the server would
// outlive its launcher by up to a pair deadline.
constexpr std::chrono::seconds kLaunchedStopGrace{3};

// Reads standard input to its end, then stops the server as SIGTERM would: a launcher (ssh,
// srun) holds the other end, so the server goes when the launcher does, however it ended. A
// server still there kLaunchedStopGrace later leaves the session it runs and exits.
void watch_stdin() {
  std::thread([] {
    std::array<char, 256> buffer{};
    while (true) {
      const ssize_t got = read(STDIN_FILENO, buffer.data(), buffer.size());
      if (got > 0 || (got < 0 && errno == EINTR)) continue;
      break;
    }
    stdin_closed = true;
    on_stop_signal(0);
    std::this_thread::sleep_for(kLaunchedStopGrace);
    constexpr std::string_view kLeaving =
        "ibkit serve: stopped (standard input closed); a session still ran 3 s later, left\n";
    [[maybe_unused]] auto written = write(STDERR_FILENO, kLeaving.data(), kLeaving.size());
    _exit(kExitPass);
  }).detach();
}

// Turns SIGTERM and SIGINT into a readable pipe the server polls, so it stops between two
// waits rather than in the middle of one; restores the previous handlers when destroyed.
class StopSignals {
 public:
  StopSignals() {
    std::array<int, 2> ends{};
    if (pipe2(ends.data(), O_CLOEXEC | O_NONBLOCK) != 0) return;
    read_end_ = FileDescriptor(ends[0]);
    write_end_ = FileDescriptor(ends[1]);
    stop_pipe_write = write_end_.get();
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, &previous_term_);
    sigaction(SIGINT, &action, &previous_int_);
    // A peer that vanishes must fail a send, not kill the server.
    std::signal(SIGPIPE, SIG_IGN);
  }
  ~StopSignals() {
    if (!read_end_.valid()) return;
    sigaction(SIGTERM, &previous_term_, nullptr);
    sigaction(SIGINT, &previous_int_, nullptr);
    stop_pipe_write = -1;
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool ok() const { return read_end_.valid(); }
  int fd() const { return read_end_.get(); }

 private:
  FileDescriptor read_end_;
  FileDescriptor write_end_;
  struct sigaction previous_term_ {};
  struct sigaction previous_int_ {};
};

std::chrono::milliseconds milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

// Checks the options and reads the key; the message says how to fix what is wrong.
Expected<ServerSettings> settings_from(const ServeOptions& options) {
  if (!options.bind.empty() && !is_numeric_address(options.bind)) {
    return Error{"--bind " + options.bind + ": not a numeric IPv4 or IPv6 address"};
  }
  if (options.key_file.empty() && !options.once) {
    return Error{
        "a long-running server needs --key-file FILE with the key its clients hold "
        "(create one with: (umask 077; openssl rand -hex 32 > FILE)), or serve a "
        "single session on this host with --once --bind 127.0.0.1"};
  }
  // Without a key nothing is authenticated or encrypted: only this host's own processes may
  // reach such a server.
  if (options.key_file.empty() && !is_loopback_address(options.bind)) {
    return Error{
        "a server without --key-file listens on loopback only (--bind 127.0.0.1 or ::1); "
        "to serve other hosts give it and its clients a key file (create one with: "
        "(umask 077; openssl rand -hex 32 > FILE))"};
  }
  ServerSettings settings;
  if (options.key_file == kStdinKey) {
    auto key = read_key_line(STDIN_FILENO, kKeyLineWait, "standard input");
    if (!key) return key.error();
    settings.key = std::move(*key);
  } else if (!options.key_file.empty()) {
    auto key = load_key_file(options.key_file);
    if (!key) return key.error();
    settings.key = std::move(*key);
  }
  settings.once = options.once;
  double window = options.deadline_s > 0 ? options.deadline_s : 0;
  if (options.once && window == 0) window = kDefaultOnceDeadlineS;
  if (window > 0) settings.accept_window = milliseconds(window);
  settings.session_timeout = milliseconds(options.session_timeout_s);
  return settings;
}

// How the server's sessions are protected, and where its key came from.
std::string key_words(const ServerSettings& settings, const ServeOptions& options) {
  if (!settings.key) return "no key (plain frames, loopback only)";
  if (options.key_file == kStdinKey) return "TLS 1.3 with the key from standard input";
  return "TLS 1.3 with the key from " + options.key_file;
}

std::string listening_line(const Listener& listener, const ServerSettings& settings,
                           const ServeOptions& options) {
  std::string line =
      "ibkit serve: listening on " + listener.local().label() + ", " + key_words(settings, options);
  if (options.until_stdin_closes) line += ", until standard input closes";
  if (settings.accept_window) {
    line += ", accepting for " +
            seconds_text(std::chrono::duration<double>(*settings.accept_window).count());
  }
  return line + (settings.once ? ", one session" : ", one session at a time");
}

}  // namespace

int run_serve(const ServeOptions& options, Console& console) {
  auto settings = settings_from(options);
  if (!settings) {
    console.err << "ibkit serve: " << settings.error().message << "\n";
    return kExitUsage;
  }
  auto listener = Listener::open(options.bind, options.port);
  if (!listener) {
    console.err << "ibkit serve: " << listener.error().message << "\n";
    return kExitEnvironment;
  }
  StopSignals signals;
  if (!signals.ok()) {
    console.err << "ibkit serve: " << posix_error("pipe", errno).message << "\n";
    return kExitEnvironment;
  }
  if (options.until_stdin_closes) watch_stdin();
  console.err << listening_line(*listener, *settings, options) << "\n" << std::flush;
  if (auto ready = tell_service_manager_ready(); !ready) {
    // The unit's start then times out: the server itself still serves.
    console.err << "ibkit serve: could not tell systemd it is ready: " << ready.error().message
                << "\n";
  }

  const ServerSummary summary =
      run_server(*listener, *settings, server_sides(settings->key), signals.fd(), console.err);
  if (summary.stopped) {
    console.err << "ibkit serve: stopped" << (stdin_closed ? " (standard input closed)" : "")
                << " after " << summary.sessions << " session(s)\n";
    return kExitPass;
  }
  if (summary.nobody_came) {
    console.err << "ibkit serve: no peer came within "
                << seconds_text(std::chrono::duration<double>(*settings->accept_window).count())
                << "\n";
    return kExitFail;
  }
  if (options.once) return summary.failed == 0 ? kExitPass : kExitFail;
  console.err << "ibkit serve: the --deadline passed; served " << summary.sessions
              << " session(s), " << summary.failed << " failed\n";
  return kExitPass;
}

Command add_serve_command(CLI::App& app) {
  auto options = std::make_shared<ServeOptions>();
  auto* parser = app.add_subcommand(
      "serve", "the peer side of pair tests: accepts test sessions, one at a time, with deadlines");
  parser->add_option("--bind", options->bind, "listen on this numeric address (default: all)")
      ->type_name("ADDR");
  parser->add_option("--port", options->port, "control port (default 18515; 0 = any free port)")
      ->type_name("PORT")
      ->check(CLI::Range(0, 65535));
  parser->add_flag("--once", options->once,
                   "serve one session, then exit with its outcome (0 ok, 1 failed)");
  parser
      ->add_option("--deadline", options->deadline_s,
                   "stop accepting after SECONDS (default 120 with --once, none otherwise)")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  parser
      ->add_option("--key-file", options->key_file,
                   "shared key (mode 600) that clients must hold: every connection runs TLS 1.3 "
                   "with it; - reads it from the first line of standard input (a launcher's "
                   "pipe); required unless --once on a loopback --bind")
      ->type_name("FILE");
  parser->add_flag("--until-stdin-closes", options->until_stdin_closes,
                   "stop when standard input ends, as on SIGTERM, leaving a session that runs "
                   "3 s later: started over ssh or srun, the server goes when its launcher does");
  parser
      ->add_option("--session-timeout", options->session_timeout_s,
                   "longest one session may run, in seconds (default 600)")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  return {parser, [options](Console& console) { return run_serve(*options, console); }};
}

}  // namespace ibkit
