#pragma once

#include <string>
#include <vector>

#include "model/sweep_report.hpp"
#include "schema/report_input.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Merges any number of check reports and at most one sweep into one report, whose verdict is
// sweep_failed(). The sweep's fields stay as they are and the checks join its node_checks;
// without a sweep the checked hosts are the report's nodes. `ibkit fabric` reports join
// fabric_checks: the host that discovered is not thereby a node. Fails naming both files when two
// sweeps are given or one host has two check reports (or two fabric reports) (a sweep that was
// merged before carries its checks along), when there is no input at all, and when the merged
// report holds more nodes than check_report_size allows.
Expected<SweepReport> merge_reports(const std::vector<ReportInput>& inputs);

}  // namespace ibkit
