#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "control/auth.hpp"
#include "control/channel.hpp"
#include "control/measurement_request.hpp"
#include "control/socket.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// The server's half of one test. Called after the request was validated and accepted, with the
// session's deadline; it runs the test's own exchange with the client. On success it returns a
// JSON object that the server sends to the client as the session's last message,
// {"type": "result", ...object}. On failure the server sends {"type": "error"} with the message.
using ServerSide =
    std::function<Expected<nlohmann::json>(Channel&, const TestRequest&, const Deadline&)>;
using ServerSides = std::map<std::string, ServerSide>;

struct ServerSettings {
  // The shared key: every connection runs TLS 1.3 with it (control/tls_channel.hpp). nullopt:
  // plain frames and no authentication, which `ibkit serve` allows only on loopback.
  std::optional<SharedKey> key;
  bool once = false;  // stop after the first session
  // Accept new sessions for this long (nullopt: until stopped). A session in progress still
  // runs to its own end.
  std::optional<std::chrono::milliseconds> accept_window;
  std::chrono::milliseconds session_timeout{std::chrono::minutes(10)};
  // A connection must finish its TLS handshake (prove the key) this soon after it came. Up to
  // max_handshakes run at once, beside the session: an unauthenticated client never holds the
  // session slot. One more connection evicts the oldest handshake still running.
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(5)};
  int max_handshakes = 16;
  // The request must arrive this soon after the connection.
  std::chrono::milliseconds request_timeout{std::chrono::seconds(10)};
  // Refused connections are logged at most once per interval, with a count of the others.
  std::chrono::milliseconds refusal_log_interval{std::chrono::seconds(10)};
};

struct ServerSummary {
  int sessions = 0;          // authenticated connections that made (or failed to make) a request
  int failed = 0;            // of those, the ones that ended with an error
  int busy = 0;              // authenticated clients turned away: a session ran, or the end came
  int refused = 0;           // connections that never proved the key (or were evicted first)
  bool stopped = false;      // stop_fd became readable (a signal)
  bool nobody_came = false;  // the accept window passed before any session
};

// Serves sessions from `listener`. Each connection gets its own thread: it runs the TLS
// handshake (a bounded number at once, each by its deadline), reads and checks the request,
// and only then asks for the one session slot. While a session runs, a client that asks waits
// up to 2 s for it to end (a sweep's next pair may connect while the last result is in flight),
// then gets {"type": "error", "message": "busy ..."}. Returns when stop_fd is readable (sessions
// in progress are ended), when the accept window has passed and nothing runs, or after the
// first session with `once`. Writes one line per session (peer, test, outcome, duration) to
// `log`, and refused connections at most once per refusal_log_interval.
ServerSummary run_server(Listener& listener, const ServerSettings& settings,
                         const ServerSides& sides, int stop_fd, std::ostream& log);

}  // namespace ibkit
