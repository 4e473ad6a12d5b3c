#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

struct DevicesOptions {
  std::string root = "/";
  std::string format = "text";  // text | json
  std::string device;           // only this HCA; "" for all
};

// `ibkit devices`: prints every HCA and port (or --device's). Returns an ExitCode: 0, 2 for a
// bad --root or a --device the node does not have, 3 when there is no RDMA device.
int run_devices(const DevicesOptions& options, Console& console);

Command add_devices_command(CLI::App& app);

}  // namespace ibkit
