#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

struct FabricOptions {
  std::string device;              // "" = the first device with an active port
  int port = 0;                    // 0 = its first active port
  std::string format = "text";     // text | json | junit
  std::string output;              // "" = stdout
  double deadline_s = 60;          // the whole discovery, killed when it passes
  int mad_timeout_ms = 200;        // one management datagram's answer
  std::string link_width;          // "" or what every link must reach: "4X"
  std::string link_speed;          // "" or "HDR"
  std::string config;              // "" or a TOML whose [limits] judge the ports' error counters
  std::string save_topology;       // "" or where to write the subnet as discovered
  std::string topology;            // "" or a subnet saved earlier to compare with
  std::string state;               // "" or where the counters are kept between runs
  double state_wait_seconds = 30;  // how long a run waits for another using the same --state
};

// `ibkit fabric`: the subnet as seen from this node, and its checks (fabric.sm,
// fabric.duplicates, fabric.link, fabric.counters, and fabric.topology with --topology).
// Returns an ExitCode: 0 every check passed, 1 one failed, 2 bad options, a --config or
// --topology that is not valid, or an --output or --save-topology that cannot be written (the
// report is still delivered, and a failing verdict stays 1; likewise a --state that cannot be
// written), 3 no discovery (no InfiniBand device
// or port, rdma-core's libibnetdisc and libibmad missing, or --deadline passed first).
int run_fabric(const FabricOptions& options, Console& console);

Command add_fabric_command(CLI::App& app);

}  // namespace ibkit
