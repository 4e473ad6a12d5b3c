#pragma once

#include <vector>

#include "model/check_result.hpp"
#include "model/sweep_report.hpp"

namespace ibkit {

// A pair whose report carries warnings (the ends differ in MTU or rate: pair.ends): it may
// well pass, but the report writers list it so nobody has to read device strings to find it.
struct PairWarning {
  const SweepPair* pair = nullptr;
  std::vector<const CheckResult*> results;  // its warn results, in report order
};

// The sweep's pairs with at least one warn result (in its report, else its `warnings`), in
// report order; pointers into `report`.
std::vector<PairWarning> warned_pairs(const SweepReport& report);

}  // namespace ibkit
