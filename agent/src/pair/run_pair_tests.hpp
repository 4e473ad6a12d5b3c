#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pair/pair_outcome.hpp"
#include "peer/auth.hpp"
#include "peer/deadline.hpp"
#include "peer/test_request.hpp"
#include "verbs/device.hpp"

namespace ibkit {

// What to run against one peer: `ibkit pair`'s options and a sweep's drive request both
// become one of these.
struct PairPlan {
  std::vector<std::string> tests{"lat"};  // "lat", "bw", "tcp", in order
  std::string op;                         // "" = send for lat, write for bw
  std::vector<std::uint64_t> sizes;       // empty = 2 B for lat, 64 KiB for bw, 128 KiB for tcp
  int qps = 1;
  std::uint64_t iters = 0;  // 0 = 1000 for lat, 5000 for bw
  double duration_s = 0;    // per size, instead of iters (bw, tcp)
  bool bidir = false;
  int tx_depth = 128;
  bool use_cm = false;            // connect the QPs through rdma_cm (lat, bw)
  DeviceChoice device;            // this side's RDMA device
  std::optional<int> rail;        // asks the peer for its rail i too (and this side's, unless
                                  // `device` names one)
  double deadline_s = 120;        // per test, plus duration_s per size
  double connect_timeout_s = 0;   // bounds reaching and authenticating the peer; 0 = deadline_s
  std::optional<Deadline> until;  // every test also ends by then (a drive's whole deadline)
};

// The request one test of the plan sends; tcp takes a single size (the first of one given).
TestRequest build_pair_request(const PairPlan& plan, const std::string& test);

struct PairTestsRun {
  std::vector<PairOutcome> outcomes;  // one per test, each with what it measured or its error
  bool peer_answered = true;          // false when no test could reach or authenticate the peer
};

// Runs each test of the plan in its own session against the `ibkit serve` at peer:port, in
// order; whatever a test measured is kept even when it fails. Never throws.
PairTestsRun run_pair_tests(const std::string& peer, std::uint16_t port,
                            const std::optional<SharedKey>& key, const PairPlan& plan);

}  // namespace ibkit
