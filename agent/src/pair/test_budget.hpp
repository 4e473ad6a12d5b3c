#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "control/measurement_request.hpp"
#include "pair/pair_plan.hpp"

namespace ibkit {

// How long the tests of a pair run, and how long they may take. Bandwidth and TCP run by
// duration unless a count is asked for (perftest's -D habit): a slow but healthy link then
// takes about as long as a fast one, instead of failing a deadline that its count overran.
// Deadlines are derived from what the tests plan, never fixed: a dead peer is found sooner by
// the stall timeouts (no completion or byte for 10 s), so a deadline only has to be safe.

// What a test needs beyond its sizes: reaching and authenticating the peer, setting up queue
// pairs or streams, reading counters (an emulated lab under load took up to 25 s of it).
inline constexpr double kTestSetupMarginS = 30;
// And per size: the start/ready/done exchange.
inline constexpr double kSizeMarginS = 2;
// The slowest rate a bandwidth test's window (verbs/send_window.hpp) is allowed to drain at when
// its time is up: an emulated lab at its slowest (ib_write_bw there: 1 to 7 MB/s).
inline constexpr double kSlowestDrainBytesPerS = 1 << 20;

// Every size perftest -a runs: 2 B to 8 MiB, doubling (23 sizes); what --sweep asks for.
std::vector<std::uint64_t> all_message_sizes();

// What one test may take: its duration x sizes, `setup_margin_s`, kSizeMarginS per size and,
// for bandwidth by duration, the time its window takes to drain at kSlowestDrainBytesPerS.
double test_deadline_s(const TestRequest& request, double setup_margin_s);

// The seconds the workload's tests spend measuring by duration (duration x sizes, summed over
// the tests as build_pair_request makes them: tcp one size); 0 when every test counts.
double planned_seconds(const PairWorkload& workload);

// What all of the workload's tests may take in one go, with kTestSetupMarginS each: a sweep's
// pair deadline when none is given. `tx_depth` is what the driving node uses (128).
double derived_pair_deadline_s(const PairWorkload& workload, int tx_depth = 128);

}  // namespace ibkit
