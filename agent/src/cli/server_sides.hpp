#pragma once

#include <map>
#include <optional>
#include <string>

#include "control/auth.hpp"
#include "control/server.hpp"

namespace ibkit {

// The server side of every test a server runs, by TestRequest::test; a drive uses `key` to
// reach its peer.
std::map<std::string, ServerSide> server_sides(const std::optional<SharedKey>& key);

}  // namespace ibkit
