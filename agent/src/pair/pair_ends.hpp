#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/check_result.hpp"
#include "model/pair_report.hpp"

namespace ibkit {

// Consistency between the two ends of a pair, the third kind of verdict rule: the ports the
// verbs tests ran on, compared by active MTU and port data rate. The path already runs at the
// smaller MTU, so a difference is a warning, not a failure, but one that names both values and
// both nodes: nobody reads an MTU inside a device string.
//
// Returns a "pair.ends" result with subject "LOCAL <-> REMOTE": warn when the ends differ in
// either figure (each difference with both values), pass when all four figures are known and
// agree, skip when some are unknown and those known agree (never a pass on a figure that could
// not be read). nullopt when no verbs test got as far as its ports (tcp only, or a test that
// failed before): there is nothing to compare.
std::optional<CheckResult> judge_pair_ends(const std::vector<PairOutcome>& outcomes,
                                           const std::string& local_node,
                                           const std::string& remote_node);

// Appends judge_pair_ends' result, if any, to `results`.
void add_pair_ends_result(CheckResults& results, const std::vector<PairOutcome>& outcomes,
                          const std::string& local_node, const std::string& remote_node);

}  // namespace ibkit
