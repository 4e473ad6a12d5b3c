#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

struct DevicesOptions {
  std::string root = "/";
  std::string format = "text";  // text | json
};

// `ibkit devices`: prints every HCA and port. Returns an ExitCode: 0, 2 for a bad --root,
// 3 when there is no RDMA device.
int run_devices(const DevicesOptions& options, Console& console);

Command add_devices_command(CLI::App& app);

}  // namespace ibkit
