#include "control/server.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <fcntl.h>
#include <list>
#include <memory>
#include <mutex>
#include <ostream>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/framed_channel.hpp"
#include "control/tcp_channel.hpp"
#include "control/tls_channel.hpp"
#include "util/posix_error.hpp"
#include "util/rate_limit.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

using Clock = Deadline::Clock;
using namespace std::chrono_literals;

// How long a refusal or a last error may take to send: the peer is expected to be reading.
constexpr auto kFarewellTimeout = 1s;
// A session that comes while another runs waits this long for its turn before it is told the
// server is busy: a sweep's next pair may connect while the last result is in flight.
constexpr auto kNextInLineWait = 2s;
// Connections held at once (handshakes, and authenticated ones waiting for their turn), in
// handshakes allowed: beyond it a new connection is closed at once.
constexpr int kConnectionsPerHandshake = 4;
// The first byte of a TLS handshake record (a ClientHello).
constexpr unsigned char kTlsHandshakeRecord = 0x16;

std::string known_tests(const ServerSides& sides) {
  std::vector<std::string> names;
  for (const auto& [name, side] : sides) names.push_back(name);
  return join(names, ", ");
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// `timeout` after `start` (which may be over already).
Deadline deadline_from(Clock::time_point start, std::chrono::milliseconds timeout) {
  return Deadline::after(
      std::chrono::duration_cast<std::chrono::milliseconds>(start + timeout - Clock::now()));
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

// Reads and drops what the peer sends until it closes or the deadline passes, so that closing
// does not reset the connection before the peer has read the last frame.
void drain(int fd, const Deadline& deadline) {
  std::array<char, 4096> sink{};
  while (true) {
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), 0);
    if (n > 0) continue;
    if (n == 0) return;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return;
    if (wait_for_events(fd, POLLIN, deadline) == 0) return;
  }
}

// Tells a peer that speaks the other kind of connection (plain frames to a server with a key,
// TLS to one without) why it is refused, in a plain frame it can read either way.
void refuse_in_plain(Socket socket, const std::string& reason) {
  TcpChannel plain(std::move(socket));
  const Deadline farewell = Deadline::after(kFarewellTimeout);
  send_error(plain, reason, farewell);
  ::shutdown(plain.socket().fd(), SHUT_WR);
  drain(plain.socket().fd(), farewell);
}

// The connection's channel once the client proved the key (TLS), or, on a server without a key,
// once it speaks in plain frames. Fails with the reason the connection is refused.
Expected<std::unique_ptr<FramedChannel>> open_channel(Socket socket, const TlsContext* tls,
                                                      const Deadline& deadline) {
  auto first = socket.peek_byte(deadline, tls != nullptr ? "the TLS handshake" : "a request");
  if (!first) return first.error();
  const std::string peer = socket.peer_name();
  if (tls != nullptr) {
    // A frame starts with its length's first byte, always 0: a client without a key.
    if (*first == 0) {
      refuse_in_plain(std::move(socket),
                      "this server requires a key: give the client its key file (--key-file); "
                      "every connection runs TLS 1.3 with it");
      return Error{peer + " has no key (it sent a plain frame); told it to use --key-file"};
    }
    auto channel = TlsChannel::accept(std::move(socket), *tls, deadline);
    if (!channel) return channel.error();
    return std::unique_ptr<FramedChannel>(std::move(*channel));
  }
  if (*first == kTlsHandshakeRecord) {
    refuse_in_plain(std::move(socket),
                    "this server has no key (a --once server on loopback): connect without "
                    "--key-file, or start the server with the key");
    return Error{peer + " offered TLS with a key, but this server has none; told it so"};
  }
  return std::unique_ptr<FramedChannel>(std::make_unique<TcpChannel>(std::move(socket)));
}

enum class Phase {
  kHandshake,      // has not proved the key yet: may be evicted
  kAuthenticated,  // proved it (or the server has none): its request, its turn, its session
};

// One connection, served on its own thread.
struct Connection {
  FileDescriptor handle;  // a duplicate of its socket: shutting it down wakes the thread
  Phase phase = Phase::kHandshake;
  std::string cut;  // why the server ended the connection itself ("" when it did not)
  bool finished = false;
  Clock::time_point start = Clock::now();
  std::thread thread;
};

struct SessionOutcome {
  std::string test = "-";             // the requested test, "-" when no valid request came
  std::optional<Error> error;         // why the session failed; nullopt when it succeeded
  std::optional<std::string> turned;  // why it was turned away before it ran (busy, ended)
};

class Server {
 public:
  Server(Listener& listener, const ServerSettings& settings, const ServerSides& sides,
         std::ostream& log)
      : listener_(listener),
        settings_(settings),
        sides_(sides),
        log_(log),
        refusals_(settings.refusal_log_interval) {}

  ServerSummary run(int stop_fd);

 private:
  // On a connection's thread.
  void serve_connection(Connection& connection, Socket socket);
  SessionOutcome serve_session(FramedChannel& channel, const std::string& peer,
                               Clock::time_point start);
  bool take_slot(const std::string& peer, std::string& refusal);
  void release_slot();
  void finish(Connection& connection, const std::string& peer, const SessionOutcome& outcome);
  void log_refusal(const std::string& what);
  void wake();

  // On the accepting thread.
  void accept_waiting();
  void admit(Socket socket);
  void reap();
  void end_accepting(const std::string& reason);
  void shut_down_all();
  bool closed() {
    std::lock_guard lock(mutex_);
    return closed_;
  }

  Listener& listener_;
  const ServerSettings& settings_;
  const ServerSides& sides_;
  std::ostream& log_;
  std::unique_ptr<TlsContext> tls_;  // nullptr without a key
  FileDescriptor wake_read_;
  FileDescriptor wake_write_;

  std::mutex mutex_;  // everything below
  std::condition_variable slot_changed_;
  bool slot_taken_ = false;
  std::string slot_holder_;
  bool closed_ = false;  // no new session will run: why is closed_reason_
  std::string closed_reason_;
  bool anyone_authenticated_ = false;
  std::list<Connection> connections_;  // in the order they came
  ServerSummary summary_;

  std::mutex log_mutex_;  // log_ and refusals_
  RateLimit refusals_;
};

ServerSummary Server::run(int stop_fd) {
  std::array<int, 2> wake{};
  if (pipe2(wake.data(), O_CLOEXEC | O_NONBLOCK) != 0) {
    log_ << "ibkit serve: " << posix_error("pipe", errno).message << "\n";
    summary_.stopped = true;
    return summary_;
  }
  wake_read_ = FileDescriptor(wake[0]);
  wake_write_ = FileDescriptor(wake[1]);
  if (settings_.key) {
    auto context = TlsContext::create(TlsContext::Role::kServer, *settings_.key);
    if (!context) {
      log_ << "ibkit serve: " << context.error().message << "\n";
      summary_.stopped = true;
      return summary_;
    }
    tls_ = std::make_unique<TlsContext>(std::move(*context));
  }
  std::optional<Deadline> window;
  if (settings_.accept_window) window = Deadline::after(*settings_.accept_window);

  bool accepting = true;
  while (true) {
    std::array<pollfd, 3> fds{{{stop_fd, POLLIN, 0},
                               {wake_read_.get(), POLLIN, 0},
                               {accepting ? listener_.fd() : -1, POLLIN, 0}}};
    const int timeout = accepting && window ? window->remaining_ms() : -1;
    if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR) {
      log_ << "ibkit serve: " << posix_error("poll", errno).message << "\n";
      fds[0].revents = POLLIN;  // as if stopped: end what runs
    }
    if (fds[0].revents != 0) {
      summary_.stopped = true;
      end_accepting("this server is shutting down");
      shut_down_all();
      break;
    }
    if (fds[1].revents != 0) {
      std::array<char, 64> bytes{};
      while (read(wake_read_.get(), bytes.data(), bytes.size()) > 0) {
      }
    }
    reap();
    if (accepting && (fds[2].revents & POLLIN) != 0) accept_waiting();
    if (accepting && window && window->expired()) {
      accepting = false;
      std::lock_guard lock(mutex_);
      summary_.nobody_came = !anyone_authenticated_;
    }
    if (accepting && settings_.once && closed()) accepting = false;
    if (!accepting) {
      end_accepting("this server has ended (--once or --deadline)");
      std::lock_guard lock(mutex_);
      if (connections_.empty()) break;
    }
  }
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    for (auto& connection : connections_) threads.push_back(std::move(connection.thread));
  }
  for (auto& thread : threads) thread.join();
  connections_.clear();
  std::lock_guard lock(log_mutex_);
  if (refusals_.held_back() > 0) {
    log_ << "ibkit serve: " << refusals_.held_back() << " more refused connection(s) not logged\n";
  }
  std::lock_guard state(mutex_);
  return summary_;
}

void Server::accept_waiting() {
  // A flood of connections is taken a bounded batch at a time, so a stop is never kept waiting.
  for (int taken = 0; taken < 64; ++taken) {
    auto socket = listener_.accept_ready();
    if (!socket) {
      // Out of descriptors, say: log it and pause rather than spin on a readable listener.
      log_refusal(socket.error().message);
      std::this_thread::sleep_for(100ms);
      return;
    }
    if (!*socket) return;
    admit(std::move(**socket));
  }
}

void Server::admit(Socket socket) {
  const std::string peer = socket.peer_name();
  std::unique_lock lock(mutex_);
  const int most = settings_.max_handshakes * kConnectionsPerHandshake;
  FileDescriptor handle(fcntl(socket.fd(), F_DUPFD_CLOEXEC, 0));
  if (static_cast<int>(connections_.size()) >= most || !handle.valid()) {
    ++summary_.refused;
    lock.unlock();
    log_refusal(peer + ": " + std::to_string(most) +
                " connections are open already; closed it at once");
    return;
  }
  // The oldest handshake gives way to the newest: a client that proves the key does so in
  // milliseconds, so the oldest one still at it is the likeliest to be stalling.
  auto in_handshake = [](const Connection& connection) {
    return connection.phase == Phase::kHandshake && connection.cut.empty() && !connection.finished;
  };
  const auto handshakes = std::count_if(connections_.begin(), connections_.end(), in_handshake);
  if (handshakes >= settings_.max_handshakes) {
    for (auto& connection : connections_) {
      if (!in_handshake(connection)) continue;
      connection.cut = "evicted before it finished its TLS handshake: " +
                       std::to_string(settings_.max_handshakes) +
                       " handshakes were running (the oldest gives way)";
      ::shutdown(connection.handle.get(), SHUT_RDWR);
      break;
    }
  }
  Connection& connection = connections_.emplace_back();
  connection.handle = std::move(handle);
  connection.thread = std::thread([this, &connection, s = std::move(socket)]() mutable {
    serve_connection(connection, std::move(s));
  });
}

void Server::reap() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mutex_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (it->finished) {
        done.push_back(std::move(it->thread));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& thread : done) thread.join();
}

void Server::end_accepting(const std::string& reason) {
  {
    std::lock_guard lock(mutex_);
    if (!closed_) {
      closed_ = true;
      closed_reason_ = reason;
    }
    for (auto& connection : connections_) {
      if (connection.phase != Phase::kHandshake || !connection.cut.empty()) continue;
      connection.cut = "the server ended before its TLS handshake did (" + reason + ")";
      ::shutdown(connection.handle.get(), SHUT_RDWR);
    }
  }
  slot_changed_.notify_all();
}

void Server::shut_down_all() {
  std::lock_guard lock(mutex_);
  if (slot_taken_) {
    std::lock_guard log(log_mutex_);
    log_ << "ibkit serve: stopping; ending the session with " << slot_holder_ << "\n";
  }
  for (auto& connection : connections_) {
    if (!connection.finished) ::shutdown(connection.handle.get(), SHUT_RDWR);
  }
}

void Server::serve_connection(Connection& connection, Socket socket) {
  const std::string peer = socket.peer().label();
  SessionOutcome outcome;
  try {
    auto channel = open_channel(std::move(socket), tls_.get(),
                                deadline_from(connection.start, settings_.handshake_timeout));
    if (!channel) {
      std::string cut;
      {
        std::lock_guard lock(mutex_);
        ++summary_.refused;
        cut = connection.cut;
      }
      log_refusal(cut.empty() ? channel.error().message : "peer " + peer + " " + cut);
      std::lock_guard lock(mutex_);
      connection.finished = true;
      wake();
      return;
    }
    {
      std::lock_guard lock(mutex_);
      connection.phase = Phase::kAuthenticated;
      anyone_authenticated_ = true;
    }
    outcome = serve_session(**channel, peer, connection.start);
  } catch (const std::exception& error) {
    outcome.error = Error{std::string("internal error: ") + error.what()};
  }
  finish(connection, peer, outcome);
}

SessionOutcome Server::serve_session(FramedChannel& channel, const std::string& peer,
                                     Clock::time_point start) {
  SessionOutcome outcome;
  auto request =
      receive_request(channel, settings_, sides_, deadline_from(start, settings_.request_timeout));
  if (!request) {
    outcome.error = request.error();
    return outcome;
  }
  outcome.test = request->test;
  std::string refusal;
  if (!take_slot(peer, refusal)) {
    send_error(channel, refusal, Deadline::after(kFarewellTimeout));
    outcome.turned = refusal;
    return outcome;
  }
  struct Release {
    Server& server;
    ~Release() { server.release_slot(); }
  } release{*this};

  const Deadline session = Deadline::after(settings_.session_timeout);
  if (auto accepted = channel.send({{"type", "accept"}, {"test", request->test}}, session);
      !accepted) {
    outcome.error = accepted.error();
    return outcome;
  }
  Expected<nlohmann::json> result = Error{};
  try {
    result = sides_.at(request->test)(channel, *request, session);
  } catch (const std::exception& error) {
    // A throwing side must not take the server (and the next sessions) down with it.
    result = Error{std::string("internal error: ") + error.what()};
  }
  if (!result) {
    outcome.error =
        send_error(channel, result.error().message, Deadline::after(kFarewellTimeout).min(session));
    return outcome;
  }
  nlohmann::json message = result->is_object() ? *result : nlohmann::json::object();
  message["type"] = "result";
  if (auto sent = channel.send(message, session); !sent) outcome.error = sent.error();
  return outcome;
}

bool Server::take_slot(const std::string& peer, std::string& refusal) {
  std::unique_lock lock(mutex_);
  slot_changed_.wait_for(lock, kNextInLineWait, [this] { return closed_ || !slot_taken_; });
  if (closed_) {
    refusal = closed_reason_;
  } else if (slot_taken_) {
    refusal = "busy: this server is running a session with " + slot_holder_ +
              "; one session at a time, try again when it ends";
  } else {
    slot_taken_ = true;
    slot_holder_ = peer;
    return true;
  }
  return false;
}

void Server::release_slot() {
  {
    std::lock_guard lock(mutex_);
    slot_taken_ = false;
    slot_holder_.clear();
    // A --once server has had its session: whoever waits is told the server has ended.
    if (settings_.once && !closed_) {
      closed_ = true;
      closed_reason_ = "this server has ended (--once)";
    }
  }
  slot_changed_.notify_all();
  wake();
}

void Server::finish(Connection& connection, const std::string& peer,
                    const SessionOutcome& outcome) {
  int number = 0;
  {
    std::lock_guard lock(mutex_);
    if (outcome.turned) {
      ++summary_.busy;
    } else {
      number = ++summary_.sessions;
      if (outcome.error) ++summary_.failed;
      if (settings_.once && !closed_) {
        closed_ = true;
        closed_reason_ = "this server has ended (--once)";
      }
    }
  }
  if (outcome.turned) {
    log_refusal("peer " + peer + ": " + *outcome.turned);
  } else {
    const double seconds = seconds_since(connection.start);
    std::string line = "ibkit serve: session " + std::to_string(number) + " from " + peer +
                       ", test " + outcome.test + ": ";
    line += outcome.error ? "failed after " + seconds_text(seconds) + ": " + outcome.error->message
                          : "ok in " + seconds_text(seconds);
    std::lock_guard lock(log_mutex_);
    log_ << line << "\n" << std::flush;
  }
  std::lock_guard lock(mutex_);
  connection.finished = true;
  slot_changed_.notify_all();
  wake();
}

void Server::log_refusal(const std::string& what) {
  std::lock_guard lock(log_mutex_);
  const auto held = refusals_.admit();
  if (!held) return;
  log_ << "ibkit serve: connection refused: " << what;
  if (*held > 0) log_ << " (and " << *held << " more since the last such line, not logged)";
  log_ << "\n" << std::flush;
}

void Server::wake() {
  char byte = 1;
  while (write(wake_write_.get(), &byte, 1) < 0 && errno == EINTR) {
  }
}

}  // namespace

ServerSummary run_server(Listener& listener, const ServerSettings& settings,
                         const ServerSides& sides, int stop_fd, std::ostream& log) {
  return Server(listener, settings, sides, log).run(stop_fd);
}

}  // namespace ibkit
