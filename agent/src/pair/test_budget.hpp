#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pair/run_pair_tests.hpp"
#include "peer/test_request.hpp"

namespace ibkit {

// How long the tests of a pair run, and how long they may take. Bandwidth and TCP run by
// duration unless a count is asked for (perftest's -D habit): a slow but healthy link then
// takes as long as a fast one instead of failing a deadline that a count overran.

// Seconds per size a bw or tcp test runs when the workload gives neither iters nor a duration.
inline constexpr double kDefaultTestDurationS = 2;
// What a test needs beyond its measured seconds: reaching the peer, authenticating, setting up
// queue pairs or streams, reading counters (generous: emulated labs take seconds for this).
inline constexpr double kTestSetupMarginS = 20;
// And per size: the start/ready/done exchange and draining the queues after the last post.
inline constexpr double kSizeMarginS = 2;

// Every size perftest -a runs: 2 B to 8 MiB, doubling (23 sizes); what --sweep asks for.
std::vector<std::uint64_t> all_message_sizes();

// The seconds per size `test` of the workload runs by duration: its duration_s, else 0 when
// it runs a count (iters, and lat always), else kDefaultTestDurationS.
double test_duration_s(const PairWorkload& workload, const std::string& test);

// How many sizes `test` runs: tcp one, the others every size of the workload (at least one).
std::size_t test_size_count(const PairWorkload& workload, const std::string& test);

// The seconds the workload's tests spend measuring by duration (duration x sizes, summed over
// the tests); 0 when every test runs a count.
double planned_seconds(const PairWorkload& workload);

// What one test may take: its duration x sizes plus `setup_margin_s` plus kSizeMarginS per size.
double test_deadline_s(const TestRequest& request, double setup_margin_s);

// What all of the workload's tests may take in one go (a sweep's pair deadline when none is
// given): every test's duration x sizes, kTestSetupMarginS and kSizeMarginS per size.
double derived_pair_deadline_s(const PairWorkload& workload);

}  // namespace ibkit
