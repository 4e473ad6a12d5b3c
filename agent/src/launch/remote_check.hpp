#pragma once

#include <string>
#include <variant>

#include "launch/launch_settings.hpp"
#include "launch/node_problem.hpp"
#include "model/check_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// What `ibkit check` on one node gave.
struct RemoteCheck {
  // The node's report, its host the node's name as given, or why there is none.
  std::variant<CheckReport, NodeProblem> outcome;
  std::string own_name;  // the host the node's report named, when not the name given; else ""
};

// `ibkit check --format json` on `target` (NODE or USER@NODE) through the launcher, by the
// check timeout or the sweep's deadline, whichever comes first (killed then, and not started
// once the deadline has passed): the node's report (pass or fail alike), or why there is none
// (unreachable, no agent, another version, output that is no check report, out of time). The
// report names the node as it was given (target_address), whatever host it calls itself: two
// nodes of one host name, or a node that calls itself another node, stay the nodes they are.
// An agent of another release than this one is a problem even when its check ran: the sweep's
// protocol is the release's. Fails only when this machine has no descriptor left to start the
// launcher with (EMFILE, ENFILE): the sweep's failure, never the node's.
Expected<RemoteCheck> check_node(const LaunchSettings& settings, const std::string& target);

}  // namespace ibkit
