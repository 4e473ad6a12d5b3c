#pragma once

#include <vector>

namespace ibkit {

// Two nodes by their index in the hosts list; `a` drives the test, `b` serves it.
struct ScheduledPair {
  int a = 0;
  int b = 0;
};

// Rounds of disjoint pairs: no node is in two pairs of one round, so a round runs at once.
using Round = std::vector<ScheduledPair>;
using Schedule = std::vector<Round>;

}  // namespace ibkit
