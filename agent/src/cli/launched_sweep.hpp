#pragma once

#include "cli/output.hpp"
#include "cli/sweep_options.hpp"

namespace ibkit {

// `ibkit sweep --launch ssh|slurm`: the sweep with nothing running beforehand. The options are
// checked first (as --dry-run does); then `ibkit check` runs on every node and `ibkit serve`
// starts on each whose check ran, with a key made for this run and handed over their stdin; the
// sweep covers the nodes whose server listens; every server is stopped; and one report merges
// the checks, the sweep and a failed check for each node that could not take part (unreachable,
// no agent, another version), named as such. Returns the merged verdict (0 or 1), or 2 for bad
// options or hosts, 3 when this machine cannot run it (the name service, or too few open files
// for the nodes' launchers: found before any node is touched, or when a launcher cannot start).
int run_launched_sweep(const SweepOptions& options, Console& console);

}  // namespace ibkit
