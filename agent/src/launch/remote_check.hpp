#pragma once

#include <string>
#include <variant>

#include "launch/launch_settings.hpp"
#include "launch/node_problem.hpp"
#include "model/check_report.hpp"

namespace ibkit {

// `ibkit check --format json` on `node` through the launcher, by the check timeout or the
// sweep's deadline, whichever comes first (killed then, and not started once the deadline has
// passed): the node's report (pass or fail alike), or why there is none (unreachable, no
// agent, another version, output that is no check report, out of time). An agent of another release
// than this one is a problem even when its check ran: the sweep's protocol is the release's.
std::variant<CheckReport, NodeProblem> check_node(const LaunchSettings& settings,
                                                  const std::string& node);

}  // namespace ibkit
