#include "peer/server.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <exception>
#include <fcntl.h>
#include <memory>
#include <ostream>
#include <poll.h>
#include <thread>
#include <unistd.h>

#include "peer/tcp_channel.hpp"
#include "util/posix_error.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;
using namespace std::chrono_literals;

// How long a refusal or a last error may take to send: the peer is expected to be reading.
constexpr auto kFarewellTimeout = 1s;
// A connection that comes while a session is ending waits this long for its turn before it is
// told the server is busy: a sweep's next pair may connect while the last result is in flight.
constexpr auto kNextInLineWait = 2s;

std::string known_tests(const ServerSides& sides) {
  std::vector<std::string> names;
  for (const auto& [name, side] : sides) names.push_back(name);
  return join(names, ", ");
}

// A request that says it runs longer than a session may last is refused up front, rather than
// cut off at the session deadline.
std::optional<std::string> over_session_limit(const TestRequest& request,
                                              const ServerSettings& settings) {
  const double planned = request.duration_s * static_cast<double>(request.sizes.size());
  const double limit = std::chrono::duration<double>(settings.session_timeout).count();
  if (planned <= limit) return std::nullopt;
  return "the request runs for " + seconds_text(planned) + " (duration_s x sizes), over this " +
         "server's session limit of " + seconds_text(limit) + " (--session-timeout)";
}

// Reads and checks the request; tells the client when it is refused.
Expected<TestRequest> receive_request(Channel& channel, const ServerSettings& settings,
                                      const ServerSides& sides, const Deadline& deadline) {
  auto message = receive_type(channel, "request", deadline);
  if (!message) return message.error();
  auto request = request_from_json(*message);
  if (!request) return send_error(channel, request.error().message, deadline);
  if (sides.count(request->test) == 0) {
    return send_error(
        channel, "unknown test \"" + request->test + "\"; this server runs: " + known_tests(sides),
        deadline);
  }
  if (auto problem = over_session_limit(*request, settings)) {
    return send_error(channel, *problem, deadline);
  }
  return request;
}

// A session running on its own thread, while the accepting thread turns others away.
struct RunningSession {
  std::shared_ptr<TcpChannel> channel;
  std::string peer;
  Clock::time_point start = Clock::now();
  SessionOutcome outcome;  // written by the session thread, read after join
  std::thread thread;
};

std::string session_line(int number, const RunningSession& session) {
  const double seconds = std::chrono::duration<double>(Clock::now() - session.start).count();
  std::string line = "ibkit serve: session " + std::to_string(number) + " from " + session.peer +
                     ", test " + session.outcome.test + ": ";
  if (!session.outcome.error) return line + "ok in " + seconds_text(seconds);
  return line + "failed after " + seconds_text(seconds) + ": " + session.outcome.error->message;
}

// Runs one session and then writes a byte to `wake_fd` so the accepting thread joins it.
void run_session_thread(RunningSession& session, const ServerSettings& settings,
                        const ServerSides& sides, int wake_fd) {
  try {
    session.outcome = serve_session(*session.channel, settings, sides);
  } catch (const std::exception& error) {
    // A throwing side must not take the server (and the next sessions) down with it.
    session.outcome.error =
        send_error(*session.channel, std::string("internal error: ") + error.what(),
                   Deadline::after(kFarewellTimeout));
  }
  char byte = 1;
  while (write(wake_fd, &byte, 1) < 0 && errno == EINTR) {
  }
}

}  // namespace

SessionOutcome serve_session(Channel& channel, const ServerSettings& settings,
                             const ServerSides& sides) {
  const Deadline session = Deadline::after(settings.session_timeout);
  const Deadline handshake = Deadline::after(settings.handshake_timeout).min(session);
  SessionOutcome outcome;
  auto authenticated = authenticate_client(channel, settings.key, handshake);
  if (!authenticated) {
    outcome.error = authenticated.error();
    return outcome;
  }
  auto request = receive_request(channel, settings, sides, handshake);
  if (!request) {
    outcome.error = request.error();
    return outcome;
  }
  outcome.test = request->test;
  auto accepted = channel.send({{"type", "accept"}, {"test", request->test}}, session);
  if (!accepted) {
    outcome.error = accepted.error();
    return outcome;
  }
  auto result = sides.at(request->test)(channel, *request, session);
  if (!result) {
    outcome.error =
        send_error(channel, result.error().message, Deadline::after(kFarewellTimeout).min(session));
    return outcome;
  }
  nlohmann::json message = result->is_object() ? *result : nlohmann::json::object();
  message["type"] = "result";
  auto sent = channel.send(message, session);
  if (!sent) outcome.error = sent.error();
  return outcome;
}

namespace {

// The accepting thread: owns the listener's loop, the running session and the connection next
// in line; everything it logs is written from this one thread.
class ServerLoop {
 public:
  ServerLoop(Listener& listener, const ServerSettings& settings, const ServerSides& sides,
             std::ostream& log)
      : listener_(listener), settings_(settings), sides_(sides), log_(log) {}

  ServerSummary run(int stop_fd) {
    std::array<int, 2> wake{};
    if (pipe2(wake.data(), O_CLOEXEC | O_NONBLOCK) != 0) return fail("pipe");
    wake_read_ = FileDescriptor(wake[0]);
    wake_write_ = FileDescriptor(wake[1]);
    if (settings_.accept_window) window_ = Deadline::after(*settings_.accept_window);

    while (accepting_ || running_) {
      std::array<pollfd, 3> fds{{{stop_fd, POLLIN, 0},
                                 {wake_read_.get(), POLLIN, 0},
                                 {accepting_ ? listener_.fd() : -1, POLLIN, 0}}};
      if (poll(fds.data(), fds.size(), poll_timeout_ms()) < 0 && errno != EINTR) {
        return fail("poll");
      }
      if (fds[0].revents != 0) {
        stop();
        break;
      }
      if (fds[1].revents != 0) session_ended();
      if (accepting_ && (fds[2].revents & POLLIN) != 0) take_connection();
      if (next_ && next_until_.expired()) {
        refuse(std::move(*next_), busy_reason());
        next_.reset();
      }
      if (accepting_ && window_ && window_->expired()) {
        accepting_ = false;
        summary_.nobody_came = summary_.sessions == 0;
      }
    }
    if (next_) refuse(std::move(*next_), "this server is shutting down");
    next_.reset();
    return summary_;
  }

 private:
  ServerSummary fail(const char* call) {
    log_ << "ibkit serve: " << posix_error(call, errno).message << "\n";
    if (running_) {
      running_->channel->shut_down();
      join_session();
    }
    summary_.stopped = true;
    return summary_;
  }

  int poll_timeout_ms() const {
    std::optional<Deadline> first;
    if (accepting_ && window_) first = *window_;
    if (next_) first = first ? first->min(next_until_) : next_until_;
    return first ? first->remaining_ms() : -1;
  }

  void take_connection() {
    auto socket = listener_.accept_ready();
    if (!socket) {
      // Out of descriptors, say: log it and pause rather than spin on a readable listener.
      log_ << "ibkit serve: " << socket.error().message << "\n";
      std::this_thread::sleep_for(100ms);
      return;
    }
    if (!*socket) return;
    if (!running_) {
      start_session(std::move(**socket));
    } else if (!next_) {
      next_ = std::move(*socket);
      next_until_ = Deadline::after(kNextInLineWait);
    } else {
      refuse(std::move(**socket), busy_reason());
    }
  }

  void start_session(Socket socket) {
    ++summary_.sessions;
    running_ = std::make_unique<RunningSession>();
    running_->peer = socket.peer().label();
    running_->channel = std::make_shared<TcpChannel>(std::move(socket));
    running_->thread = std::thread(run_session_thread, std::ref(*running_), std::cref(settings_),
                                   std::cref(sides_), wake_write_.get());
  }

  void session_ended() {
    std::array<char, 64> bytes{};
    while (read(wake_read_.get(), bytes.data(), bytes.size()) > 0) {
    }
    join_session();
    if (settings_.once) accepting_ = false;
    if (!next_) return;
    if (accepting_) {
      start_session(std::move(*next_));
    } else {
      refuse(std::move(*next_), "this server has ended (--once or --deadline)");
    }
    next_.reset();
  }

  void join_session() {
    running_->thread.join();
    if (running_->outcome.error) ++summary_.failed;
    log_ << session_line(summary_.sessions, *running_) << "\n" << std::flush;
    running_.reset();
  }

  void stop() {
    summary_.stopped = true;
    if (!running_) return;
    log_ << "ibkit serve: stopping; ending the session with " << running_->peer << "\n";
    running_->channel->shut_down();
    join_session();
  }

  std::string busy_reason() const {
    return running_ ? "busy: this server is running a session with " + running_->peer +
                          "; one session at a time, try again when it ends"
                    : "busy: try again";
  }

  void refuse(Socket socket, const std::string& reason) {
    TcpChannel channel(std::move(socket));
    send_error(channel, reason, Deadline::after(kFarewellTimeout));
    ++summary_.busy;
    log_ << "ibkit serve: refused " << channel.socket().peer().label() << ": " << reason << "\n";
  }

  Listener& listener_;
  const ServerSettings& settings_;
  const ServerSides& sides_;
  std::ostream& log_;
  FileDescriptor wake_read_;
  FileDescriptor wake_write_;
  std::optional<Deadline> window_;
  bool accepting_ = true;
  std::unique_ptr<RunningSession> running_;
  std::optional<Socket> next_;
  Deadline next_until_ = Deadline::after(0ms);
  ServerSummary summary_;
};

}  // namespace

ServerSummary run_server(Listener& listener, const ServerSettings& settings,
                         const ServerSides& sides, int stop_fd, std::ostream& log) {
  return ServerLoop(listener, settings, sides, log).run(stop_fd);
}

}  // namespace ibkit
