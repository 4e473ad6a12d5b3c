#pragma once

#include <string>
#include <variant>

#include "launch/launch_settings.hpp"
#include "launch/node_problem.hpp"
#include "model/check_report.hpp"

namespace ibkit {

// `ibkit check --format json` on `node` through the launcher, by the check timeout: the node's
// report (pass or fail alike), or why there is none (unreachable, no agent, another version,
// output that is no check report). An agent of another release than this one is a problem
// even when its check ran: the sweep's protocol is the release's.
std::variant<CheckReport, NodeProblem> check_node(const LaunchSettings& settings,
                                                  const std::string& node);

}  // namespace ibkit
