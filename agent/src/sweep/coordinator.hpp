#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "model/sweep_report.hpp"
#include "schedule/hosts.hpp"
#include "schedule/schedule.hpp"
#include "sweep/drive_request.hpp"
#include "sweep/pair_attempt.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {

struct SweepSettings {
  std::string pattern = "all-pairs";  // for the report
  DriveRequest drive;                 // what each pair runs; peer, port and rail are filled in
  int rails = 1;                      // rails 0..rails-1, each pair on each
  double pair_deadline_s = 60;        // one attempt at one pair, from the coordinator's side
  double connect_timeout_s = 5;       // reaching and authenticating a node
  // The whole sweep (--deadline), counted from before `--rails all` asks the nodes; pairs
  // left when it passes are not run.
  std::optional<Deadline> deadline;
  // The signal that stopped the sweep (SIGTERM, SIGINT), 0 while none came: pairs not begun
  // are not run, as past the deadline; the pairs in flight end as they would.
  std::function<int()> stop_signal;
  int silent_limit = 2;  // a node silent in this many pairs in a row is skipped (till the retests)
  FleetFactors fleet;    // the fleet-relative rule ([thresholds] fleet*)
  PairRoutes routes;     // from a topology: what blames links (rules/link_blame.hpp)
};

// Runs one attempt at pair (a, b) on `rail` by `deadline`; must return by then.
using PairRunner = std::function<PairAttempt(const SweepHost& a, const SweepHost& b, int rail,
                                             const Deadline& deadline)>;

// Where a sweep is, for a progress line.
struct SweepProgress {
  int step = 0;  // rounds x rails, then the retest rounds
  int steps = 0;
  bool retesting = false;
  std::size_t done = 0;  // pairs finished (retests included)
  std::size_t total = 0;
  std::size_t bad = 0;  // of those, not a pass
  double elapsed_s = 0;
  double eta_s = 0;  // from the mean step time so far
  // Node by node: which pairs the step still waits for ("a-b") and for how long it has run,
  // the nodes that did not answer their last pair, and those with pairs that did not pass
  // (with how many, most first).
  std::vector<std::string> waiting_for;
  double step_elapsed_s = 0;
  std::vector<std::string> silent;
  std::vector<std::pair<std::string, int>> not_passing;
};
using ProgressSink = std::function<void(const SweepProgress&)>;

// Runs the schedule: each round's pairs at once (one thread per pair), on every rail in turn;
// a node that stayed silent `silent_limit` pairs in a row is skipped for the rest of the rounds
// (its pairs are not_run), unless most of a step went silent at once (a fabric-wide event,
// counted against no node); then every bad pair once more, and the pairs a silent node was left
// out of, with every node's silence forgiven, in disjoint rounds of their own (a retest that
// cannot run, for the deadline or a silent node, keeps the first attempt's outcome); then blames
// nodes (rules/blame.hpp), then links when it has routes (rules/link_blame.hpp). The fleet-relative
// rule (rules/fleet_verdict.hpp) judges the first attempts before the retests: a pair far from the
// fleet is slow and retested after the other bad pairs, one at a time, beside a control (a pair
// that was not far, measured at the same time or right after); it stays slow only when its retest
// is far from the fleet's typical figure and clearly worse than the control's
// (confirm_with_control). Never throws for a node's fault; one dead node costs only its pairs. A
// runner that throws makes its pair failed; pairs no thread can be started for are not_run.
// `progress` is called every quarter second and after each step.
SweepReport run_sweep(const std::vector<SweepHost>& hosts, const Schedule& schedule,
                      const SweepSettings& settings, const PairRunner& runner,
                      const ProgressSink& progress);

}  // namespace ibkit
