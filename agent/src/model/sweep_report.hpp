#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "model/baseline_comparison.hpp"
#include "model/check_report.hpp"
#include "model/pair_report.hpp"
#include "util/build_version.hpp"
#include "util/heap_optional.hpp"

namespace ibkit {

inline constexpr const char* kSweepSchema = "ibkit.sweep/3";
// The schemas before (docs/verdicts.md), still read, no longer written: /2 wrote every value of
// every row, figures to a thousandth; /1 every pair as an object with its whole report.
inline constexpr const char* kSweepSchemaV2 = "ibkit.sweep/2";
inline constexpr const char* kSweepSchemaV1 = "ibkit.sweep/1";
// The most rails a sweep tests (and a report may claim): rails are 0..kMaxRails-1.
inline constexpr int kMaxRails = 64;
// The most nodes a sweep tests (--hosts) and a report holds.
inline constexpr std::size_t kMaxSweepNodes = 4096;
// The most cells (nodes x nodes x rails) of one pair matrix a report draws: 4096 nodes on one
// rail, 1448 on 8, 512 on 64. The CSV files grow with it, so a small report.json that names
// many nodes cannot make `ibkit report` write gigabytes.
inline constexpr std::size_t kMaxMatrixCells = kMaxSweepNodes * kMaxSweepNodes;
// How often a pair is tried: once, and once more when it is retested.
inline constexpr int kMaxPairAttempts = 2;
// The longest time a report may state, in seconds (about 116 days): far beyond any sweep
// (--deadline is at most 7 days), so a larger figure is a corrupt report.
inline constexpr double kMaxReportSeconds = 1e7;

// How one pair ended. Each is a different thing to fix, so each is its own word in every
// report: a slow link is not a dead node.
enum class PairStatus {
  kPass,         // every test ran and met its thresholds
  kSlow,         // every test ran, a figure fell short of a threshold
  kFailed,       // a test started and failed (an error from either side, a counter delta)
  kTimedOut,     // the pair's deadline passed before its result came
  kUnreachable,  // the coordinator could not reach or authenticate the driving node's agent
  kNotRun,       // the sweep's deadline or a blamed node left it out
};

// "pass", "slow", "failed", "timed_out", "unreachable", "not_run".
std::string_view pair_status_name(PairStatus status);

// Where a pair of this status stands in every listing of pairs, worst first: failed (0),
// timed_out, unreachable, slow, not_run, pass (5). Listings sort by it stably, so pairs of one
// status keep the order they were given in.
int pair_status_rank(PairStatus status);

// The rules that decided a pair's status (docs/verdicts.md): for a pass, the figure rules its
// figures were held to; for a slow pair, those its figures fell short of. A pair that failed,
// timed out, was unreachable or did not run has none: its reason says why.
struct PairRules {
  bool recorded = true;    // false in a report written before ibkit recorded rules
  bool threshold = false;  // an absolute [thresholds] value
  bool fleet = false;      // the fleet-relative rule
  bool baseline = false;   // compared with an earlier run's figures (--baseline)
};

// The rules joined by "+" ("threshold", "fleet", "threshold+fleet", "fleet+baseline", ...),
// "none", or "not recorded".
std::string pair_rules_name(const PairRules& rules);

// What the matrices show of a pair: the typical latency of its smallest size, and the bandwidth
// of its largest verbs size (the TCP figure when it ran no verbs bandwidth test). Unset when the
// pair did not measure it.
struct PairFigures {
  std::optional<double> latency_us;
  std::optional<double> bandwidth_gbps;
  // That bandwidth each way the pair measured one: a's sends to b and b's sends to a (a
  // bidirectional test measures both ways, a one-way test the way its data went). A node slow
  // only when sending hides in a bidirectional sum; these show it.
  std::optional<double> a_to_b_gbps;
  std::optional<double> b_to_a_gbps;
};

// The tests a sweep's PairFigures come from ("lat send 2 B", "bw write bidir 65536 B"), the same
// for every pair of one sweep: "" when not known (no pair measured one, or a report written
// before ibkit recorded them).
struct FigureSubjects {
  std::string latency;
  std::string bandwidth;
};

// One pair of nodes on one rail. `a` drives the test (the client side of `ibkit pair`), `b`
// serves it.
struct SweepPair {
  std::string a;
  std::string b;
  int rail = 0;   // rail i of a against rail i of b; 0 on single-HCA nodes
  int round = 0;  // 1-based round it was scheduled in
  PairStatus status = PairStatus::kNotRun;
  std::string reason;               // one line for anything but a pass
  int attempts = 0;                 // 1, or 2 when it was retested
  double seconds = 0;               // wall time of the last attempt
  HeapOptional<PairReport> report;  // what the last attempt measured, when it reached b
  PairRules rules;                  // what decided `status`
  // What a pair read without its report still shows (report.json keeps the report of only
  // some pairs). While `report` is set it is the truth and these are not looked at.
  PairFigures figures;
  CheckResults warnings;  // its warn results
};

// What the matrices show of a pair (PairFigures): from its report when it has one, else the
// figures it was read with.
PairFigures pair_figures(const SweepPair& pair);

// A node taken as the cause of its pairs' failures, instead of its links.
struct NodeBlame {
  std::string node;
  std::string reason;  // "all 15 pairs failed: unreachable", "memlock: 64 KiB"
};

// A switch-to-switch link taken as the cause of pairs' failures (rules/link_blame.hpp).
struct LinkBlame {
  std::string link;    // "leaf-1 (0x...) port 13 <-> spine-2 (0x...) port 1"
  std::string reason;  // "2 of the 3 pairs whose routes cross it did not pass, ..."
};

// Where a fleet reference's slow line came from.
enum class FleetLineBasis {
  kFactors,  // the fixed factors: too few healthy ways to know the spread (or an older report)
  kSpread,   // drawn from how far the fleet's healthy figures spread
  kPinned,   // the factor [thresholds] sets
};

// The fleet's typical figure for one test, size and rail: what the fleet-relative rule held
// every pair with that figure to, and the line it was held to.
struct FleetReference {
  std::string subject;  // "lat send 2 B", "bw write 1048576 B", "tcp 4 streams 131072 B"
  int rail = 0;
  bool latency = false;  // a latency in us (lower is better), else a bandwidth in Gb/s
  double typical = 0;
  int nodes = 0;             // nodes with a figure, each contributing its upper-quartile one
  double typical_floor = 0;  // a latency's typical minimum (0: not known, a report before it)
  // The line as a ratio to `typical`: a bandwidth below it or a latency above it is far. 0 in a
  // report from before lines were drawn: the factors then.
  double line = 0;
  FleetLineBasis basis = FleetLineBasis::kFactors;
  double spread = 0;    // the healthy figures' spread, a standard deviation of their logarithm
  int spread_ways = 0;  // how many figures it was learned from
  // Nodes judged as nodes: every way they send (receive; for a latency, every pair they are in)
  // is past the square root of the line, so each of those figures is held to that root.
  std::vector<std::string> low_senders{};
  std::vector<std::string> low_receivers{};
};

// How the sweep applied the fleet-relative rule: its factors, and the typical figures.
struct FleetJudgment {
  FleetFactors factors;                    // factors.on false: the rule was switched off
  std::vector<FleetReference> references;  // none with fewer than 3 nodes measured
};

// One sweep (and, after `ibkit report` merges them, the nodes' own check reports): the single
// model JSON, JUnit, Markdown, CSV and HTML are rendered from.
struct SweepReport {
  std::string generated_at;        // UTC, ISO 8601
  std::string coordinator;         // the host that ran the sweep
  std::string pattern;             // "all-pairs", "ring", "random:3", "pairs:FILE"
  std::vector<std::string> tests;  // "lat", "bw", "tcp"
  std::vector<std::string> nodes;  // in the order of the hosts file
  int rails = 1;
  int rounds = 0;
  double wall_seconds = 0;
  // The signal that stopped the sweep (SIGTERM, SIGINT), 0 when none did. Not written: the pairs
  // it left not run say so in their reasons.
  int stopped_by = 0;
  std::vector<SweepPair> pairs;
  std::size_t details_omitted = 0;  // pairs whose report a report read without it left out
  std::vector<NodeBlame> blamed;
  std::vector<LinkBlame> blamed_links;   // only from a sweep scheduled from the topology
  std::vector<CheckReport> node_checks;  // empty until merged with `ibkit report`
  // `ibkit fabric` reports merged with `ibkit report`: the subnet as one node discovered it.
  std::vector<CheckReport> fabric_checks;
  // Unset in a report of checks alone, and in one written before ibkit judged fleets.
  std::optional<FleetJudgment> fleet;
  // As read from a report; figure_subjects_of() fills it from the pairs' reports when empty.
  FigureSubjects figure_subjects;
  std::optional<BaselineComparison> baseline;   // set when the run was judged against one
  std::string agent_version = build_version();  // the writer's; "" in reports older than it
};

// The report's figure_subjects, or those of the first pair with a report that measured each.
FigureSubjects figure_subjects_of(const SweepReport& report);

// The nodes a sweep was given but did not test, in report.nodes' order: in no pair that ran
// (none scheduled for them, as a pattern that leaves a node out does, or every one of theirs
// not_run). None in a report of checks alone (no pattern).
std::vector<std::string> untested_nodes(const SweepReport& report);

// "2 of 4 nodes untested (in no pair that ran): lab2, lab3", the first `most` named; "" when
// every node was tested.
std::string untested_text(const SweepReport& report, std::size_t most = 8);

// Fail when any pair is not a pass, any node was not tested (untested_nodes: a sweep of no pairs
// never passes), any node or link is blamed, any merged check (of a node or of the fabric)
// failed, or a typical figure regressed from the baseline's.
bool sweep_failed(const SweepReport& report);

}  // namespace ibkit
