#pragma once

#include <string>
#include <vector>

#include "model/sweep_report.hpp"
#include "util/expected.hpp"

namespace ibkit {

// Creates `dir` and writes and removes a file in it, so a sweep learns that its --output is
// unusable before it runs rather than after. The Error names `dir` and why.
Expected<Done> prepare_report_dir(const std::string& dir);

// Writes report.json (and summary.json beside it), junit.xml, summary.md, latency.csv,
// bandwidth.csv and report.html (as chosen by `formats`, "all" for every one) into `dir`,
// creating it, as one set: all are written before any replaces its old copy, and summary.json
// (the verdict) is removed before and moved in after the rest, so `dir` never holds this run's
// files beside another run's verdict. Fails naming the file it could not write.
Expected<std::vector<std::string>> write_sweep_reports(const SweepReport& report,
                                                       const std::string& dir,
                                                       const std::vector<std::string>& formats);

}  // namespace ibkit
