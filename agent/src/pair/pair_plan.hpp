#pragma once

#include <optional>
#include <string>
#include <vector>

#include "control/measurement_request.hpp"
#include "pair/pair_workload.hpp"
#include "util/time/deadline.hpp"
#include "verbs/device.hpp"

namespace ibkit {

// Seconds per size a bw or tcp test runs when the workload gives neither iters nor a duration.
inline constexpr double kDefaultTestDurationS = 2;

// The seconds per size `test` of the workload runs by duration: its duration_s, else 0 when
// it runs a count (iters, and lat always), else kDefaultTestDurationS.
double test_duration_s(const PairWorkload& workload, const std::string& test);

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

}  // namespace ibkit
