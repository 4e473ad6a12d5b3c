#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ibkit {

// The tests against one peer and their sizes: what `ibkit pair`'s options, a sweep's drive
// message and PairPlan (pair/pair_plan.hpp) share.
struct PairWorkload {
  std::vector<std::string> tests{"lat"};  // "lat", "bw", "tcp", in order
  std::vector<std::uint64_t> sizes;       // empty = 2 B for lat, 64 KiB for bw, 128 KiB for tcp
  std::string op;                         // "" = send for lat, write for bw
  int qps = 1;
  std::uint64_t iters = 0;  // a count per size (lat: 0 = 1000); bw and tcp run by duration without
  double duration_s = 0;    // per size (bw, tcp); 0 and no iters = 2 s (pair/test_budget.hpp)
  bool bidir = false;
  std::optional<int> rail;         // rail i on both ends (verbs/rails.hpp); unset: the first Active
  std::optional<int> ack_timeout;  // verbs: RC ACK timeout exponent on both ends (perftest -u)
};

}  // namespace ibkit
