#pragma once

#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "control/auth.hpp"
#include "control/channel.hpp"
#include "control/measurement_request.hpp"
#include "util/expected.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

// The server side of a "drive" session (a ServerSide once bound to the server's key): reads and
// checks the drive message, runs the pair tests against its peer with `key`, and returns
// {"peer_answered": bool, "report": <the pair report, as pair_report_json makes it>}. A drive
// out of bounds, or longer than the session has left, is refused naming the field.
Expected<nlohmann::json> serve_drive(Channel& channel, const TestRequest& request,
                                     const Deadline& session, const std::optional<SharedKey>& key);

// The server side of a "rails" session: {"rails": ["mlx5_0", ...], "session_s": 600}, this
// node's rails in order and how long the session has (what any session of it starts with).
Expected<nlohmann::json> serve_rails(Channel& channel, const TestRequest& request,
                                     const Deadline& session);

}  // namespace ibkit
