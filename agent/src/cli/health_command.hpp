#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/check_command.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"

namespace ibkit {

struct HealthOptions {
  CheckOptions check;               // --root, --config: the node is judged as ibkit check does
  std::string scheduler = "slurm";  // slurm | none
  std::string node;                 // "" = $SLURMD_NODENAME, else the short host name
  std::string scontrol = "scontrol";
  double timeout_seconds = 10;  // each scontrol call
  // One run at a time: Slurm starts its health program every interval whether or not the
  // last run ended. "" runs without the lock.
  std::string lock = "/run/ibkit/health.lock";
  // A lock held longer than this is a stuck run, which fails the node rather than silence it.
  double lock_limit_seconds = 600;
};

// `ibkit health`: the node check as a scheduler's health program (Slurm's HealthCheckProgram).
// On failure prints "ERROR: ibkit: Health check failed: <summary>" on stdout and, with Slurm,
// drains the node unless someone else took it out of service; on a pass it resumes a node
// ibkit drained and prints nothing else. Returns an ExitCode: 0 pass, 1 a check failed,
// 2 bad options or configuration, or scontrol missing, failing or past its deadline,
// 3 no RDMA device (the node is drained all the same). While another run holds `lock` it says
// so and returns 0, judging and changing nothing; once that run has held it past
// `lock_limit_seconds`, it is stuck, and the node fails (and is drained) on that alone.
int run_health(const HealthOptions& options, Console& console);

Command add_health_command(CLI::App& app);

}  // namespace ibkit
