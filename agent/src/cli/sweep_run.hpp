#pragma once

#include <optional>
#include <vector>

#include "cli/output.hpp"
#include "cli/sweep_options.hpp"
#include "control/auth.hpp"
#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"

namespace ibkit {

// How a sweep of given hosts ended: its report, or (none) the exit status of what stopped it
// first (options, names, rails, a dry run), which it has said on console.err.
struct SweepOutcome {
  int status = 0;
  std::optional<SweepReport> report;
};

// The sweep of `hosts` as `options` asks, against servers holding `key`; prints the progress
// line on a terminal, not the report.
SweepOutcome sweep_hosts(const SweepOptions& options, const std::vector<SweepHost>& hosts,
                         const std::optional<SharedKey>& key, Console& console);

// Judges `report` against the --baseline read before the sweep, prints its summary and writes
// the files --format and --output ask for; returns the exit status (0 pass, 1 fail, 2 a report
// already judged against a baseline, 3 a passing report that could not be written).
int report_sweep(const SweepOptions& options, const std::optional<SweepReport>& baseline,
                 SweepReport& report, Console& console);

}  // namespace ibkit
