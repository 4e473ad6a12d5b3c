#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/workload_options.hpp"
#include "control/channel.hpp"
#include "util/expected.hpp"

namespace ibkit {

struct PairOptions {
  std::string peer;  // "" with --loopback
  std::uint16_t port = kDefaultControlPort;
  std::string key_file;
  WorkloadOptions workload;
  int tx_depth = 128;
  bool cm = false;        // rdma_cm connects the QPs; the device is the one that holds PEER's route
  bool loopback = false;  // two QPs of this node against each other; no PEER, no serve
  std::string device;     // --loopback without it: every rail
  std::string peer_device;           // --loopback: the other QP's device (another HCA of this node)
  std::string completions = "poll";  // poll | events | both (--events: events)
  bool events = false;
  int gid_index = -1;
  std::string config;
  double deadline_s = 120;  // per test, beyond its duration x sizes
  std::string format = "text";
  std::string output;
};

// Whether the options go together (PEER or --loopback, and what each excludes); else a one-line
// message naming the flags and the fix.
Expected<Done> check_pair_options(const PairOptions& options);

// `ibkit pair PEER`: runs the chosen tests against `ibkit serve` on PEER and judges them;
// `ibkit pair --loopback` runs them between two queue pairs of this node instead.
// Returns an ExitCode: 0 pass, 1 a test failed or fell short, 2 bad options or config, 3 no
// local RDMA device.
int run_pair(const PairOptions& options, Console& console);

Command add_pair_command(CLI::App& app);

}  // namespace ibkit
