#pragma once

#include "util/expected.hpp"

namespace ibkit {

// Tells the service manager that started this process (systemd's NOTIFY_SOCKET, a path or
// "@" and an abstract name) that it is ready: "READY=1". A unit of Type=notify (and
// `systemd-run --property=Type=notify`) counts as started only then, so whoever started it
// waits for a server that listens, and hears at once when it exits first. Without
// NOTIFY_SOCKET it does nothing.
Expected<Done> tell_service_manager_ready();

}  // namespace ibkit
