#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/auth.hpp"
#include "control/measurement_request.hpp"
#include "model/pair_report.hpp"
#include "util/deadline.hpp"
#include "verbs/device.hpp"

namespace ibkit {

// The tests against one peer and their sizes: what `ibkit pair`'s options, a sweep's drive
// message and the plan below share.
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

// How the verbs tests wait for their completions: busy-polling the CQ (perftest's default),
// sleeping on a completion channel (perftest -e), or each test twice, polling then events.
enum class Completions { kPoll, kEvents, kBoth };

// The runs each verbs test gets: {false} (poll), {true} (events) or {false, true} (both).
std::vector<bool> completion_events_of(Completions completions);

// What to run against one peer, and how.
struct PairPlan : PairWorkload {
  int tx_depth = 128;
  bool use_cm = false;                           // connect the QPs through rdma_cm (lat, bw)
  Completions completions = Completions::kPoll;  // lat, bw: how completions are waited for
  DeviceChoice device;            // this side's RDMA device; `rail` applies unless it names one
  double deadline_s = 120;        // per test beyond its duration x sizes (test_deadline_s)
  double connect_timeout_s = 0;   // bounds reaching and authenticating the peer; 0 = deadline_s
  std::optional<Deadline> until;  // every test also ends by then (a drive's whole deadline)
};

// The request one test of the plan sends; tcp takes a single size (the first of one given).
// Events are asked for when the plan's completions are kEvents (kBoth sets them per run).
TestRequest build_pair_request(const PairPlan& plan, const std::string& test);

struct PairTestsRun {
  std::vector<PairOutcome> outcomes;  // one per test, each with what it measured or its error
  bool peer_answered = true;          // false when no test could reach or authenticate the peer
};

// Runs each test of the plan in its own session against the `ibkit serve` at peer:port, in
// order (a verbs test once per completion mode of the plan, polling first); whatever a test
// measured is kept even when it fails. Never throws.
PairTestsRun run_pair_tests(const std::string& peer, std::uint16_t port,
                            const std::optional<SharedKey>& key, const PairPlan& plan);

}  // namespace ibkit
