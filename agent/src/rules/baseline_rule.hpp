#pragma once

#include <string>

#include "model/baseline_comparison.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// The baseline rule (docs/verdicts.md): a judged run compared with an earlier one, `before`
// (read from `file`), for the same tests, sizes and rails. A figure of a pair worse than the same
// pair's in the baseline by more than `factor` (a latency above factor x, a bandwidth below
// 1/factor x; each way of a bandwidth on its own) makes the pair slow, its reason naming both
// figures and the baseline's date; a pair passes the rule only against a pair that passed then.
// The fleet's typical figures (report.fleet) are compared the same way: one worse by the factor
// fails the run even when the pairs' schedule changed, so that no pair has one to compare with.
// Pairs and checks that pass now and failed then, and the reverse, and nodes gone or new, are
// listed. Records the comparison in now.baseline and returns it. Pure and deterministic: the same
// two reports give the same comparison.
const BaselineComparison& judge_against_baseline(SweepReport& now, const SweepReport& before,
                                                 const std::string& file, double factor);

}  // namespace ibkit
