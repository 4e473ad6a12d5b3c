#pragma once

#include <string>
#include <variant>
#include <vector>

#include "report/check_report.hpp"
#include "sweep/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// One file `ibkit report` was given: a node's check report or a sweep's report.json.
struct ReportInput {
  std::string path;
  std::variant<SweepReport, CheckReport> report;
};

// Reads `path` by the schema it names ("ibkit.check/1" or "ibkit.sweep/1"). Fails with a
// message that starts with the path: unreadable, not JSON, another schema, a missing field.
Expected<ReportInput> read_report_input(const std::string& path);

// Merges any number of check reports and at most one sweep into one report, whose verdict is
// sweep_failed(). The sweep's fields stay as they are and the checks join its node_checks;
// without a sweep the checked hosts are the report's nodes. Fails naming both files when two
// sweeps are given or one host has two check reports (a sweep that was merged before carries
// its checks along), and when there is no input at all.
Expected<SweepReport> merge_reports(const std::vector<ReportInput>& inputs);

}  // namespace ibkit
