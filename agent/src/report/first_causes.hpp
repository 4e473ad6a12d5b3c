#pragma once

#include <string>

#include "model/sweep_report.hpp"

namespace ibkit {

// Why a sweep report failed, in the words its banners and blame lines use.

// `blame`'s reason, with the blamed node's own failed checks beside it when it has a merged check
// report that failed: "all 3 pairs failed or slow (...): the node, not its links; its failed
// check: memlock process: soft 64 KiB, hard 64 KiB (expected unlimited)". The cause a reader
// looks for is usually there, not in the pairs.
std::string blame_with_checks(const SweepReport& report, const NodeBlame& blame);

// The verdict's first cause in one line, "" when the report passed: the first blamed node (with
// its failed checks, and how many more are blamed), else the first blamed link, the first of the
// fleet's typical figures that regressed since the baseline, the worst pair
// that did not pass, the first node whose checks failed, the fabric's first failed finding, or
// the nodes no pair tested ("2 of 4 nodes untested (in no pair that ran): h2, h3").
std::string first_cause(const SweepReport& report);

}  // namespace ibkit
