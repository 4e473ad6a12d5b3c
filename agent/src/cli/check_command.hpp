#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/check_options.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

// `ibkit check`: the readiness preflight. Returns an ExitCode: 0 pass (warnings allowed),
// 1 a check failed, 2 bad --root/--config/--output/--metrics/--state, 3 no
// RDMA device.
int run_check(const CheckOptions& options, Console& console);

Command add_check_command(CLI::App& app);

}  // namespace ibkit
