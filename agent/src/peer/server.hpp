#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "peer/auth.hpp"
#include "peer/channel.hpp"
#include "peer/socket.hpp"
#include "peer/test_request.hpp"
#include "util/deadline.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The server's half of one test. Called after the request was validated and accepted, with the
// session's deadline; it runs the test's own exchange with the client. On success it returns a
// JSON object that the server sends to the client as the session's last message,
// {"type": "result", ...object}. On failure the server sends {"type": "error"} with the message.
using ServerSide =
    std::function<Expected<nlohmann::json>(Channel&, const TestRequest&, const Deadline&)>;
using ServerSides = std::map<std::string, ServerSide>;

struct ServerSettings {
  std::optional<SharedKey> key;  // nullopt: clients without a key only (--once servers)
  bool once = false;             // stop after the first session
  // Accept new sessions for this long (nullopt: until stopped). A session in progress still
  // runs to its own end.
  std::optional<std::chrono::milliseconds> accept_window;
  std::chrono::milliseconds session_timeout{std::chrono::minutes(10)};
  // Authentication and the request must arrive this soon after the connection.
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(10)};
};

struct SessionOutcome {
  std::string test = "-";      // the requested test, "-" when no valid request came
  std::optional<Error> error;  // why the session failed; nullopt when it succeeded
};

// One session on a connected channel: authenticates the client, reads and validates its request,
// runs the side registered for request.test and sends its result. Whatever fails is also told
// to the client when the channel still works.
SessionOutcome serve_session(Channel& channel, const ServerSettings& settings,
                             const ServerSides& sides);

struct ServerSummary {
  int sessions = 0;          // connections that became sessions
  int failed = 0;            // of those, the ones that ended with an error
  int busy = 0;              // connections refused: a session was running, or the end came
  bool stopped = false;      // stop_fd became readable (a signal)
  bool nobody_came = false;  // the accept window passed before any session
};

// Serves sessions from `listener`, one at a time: a connection that comes while a session runs
// waits up to 2 s for it to end (a sweep's next pair may connect while the last result is in
// flight), then gets {"type": "error", "message": "busy ..."}. Returns when stop_fd is readable (a
// session in progress is ended), when the accept window has passed and no session runs, or
// after the first session with `once`. Writes one line per session (peer, test, outcome,
// duration) and per refused connection to `log`.
ServerSummary run_server(Listener& listener, const ServerSettings& settings,
                         const ServerSides& sides, int stop_fd, std::ostream& log);

}  // namespace ibkit
