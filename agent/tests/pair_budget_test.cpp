#include <catch2/catch.hpp>

#include "pair/run_pair_tests.hpp"
#include "pair/test_budget.hpp"

using ibkit::build_pair_request;
using ibkit::PairPlan;
using ibkit::PairWorkload;

TEST_CASE("bandwidth and tcp run by duration unless a count is asked for, latency by count") {
  PairPlan plan;
  plan.tests = {"lat", "bw", "tcp"};
  const auto lat = build_pair_request(plan, "lat");
  CHECK(lat.duration_s == 0);
  CHECK(lat.iters == 1000);
  for (const char* test : {"bw", "tcp"}) {
    INFO(test);
    const auto request = build_pair_request(plan, test);
    CHECK(request.duration_s == ibkit::kDefaultTestDurationS);
    CHECK(request.iters == 0);  // the wire form wants exactly one of the two
  }

  plan.iters = 300;  // --iters: a count everywhere, no duration
  for (const char* test : {"lat", "bw", "tcp"}) {
    INFO(test);
    const auto request = build_pair_request(plan, test);
    CHECK(request.duration_s == 0);
    CHECK(request.iters == 300);
  }

  plan.iters = 0;
  plan.duration_s = 0.5;  // --duration: bw and tcp, never latency
  CHECK(build_pair_request(plan, "bw").duration_s == 0.5);
  CHECK(build_pair_request(plan, "tcp").duration_s == 0.5);
  CHECK(build_pair_request(plan, "lat").duration_s == 0);
  CHECK(build_pair_request(plan, "lat").iters == 1000);
}

TEST_CASE("a test's deadline grows with its duration and sizes, never below the setup margin") {
  ibkit::TestRequest request;
  request.sizes = {65536};
  request.duration_s = 2;
  CHECK(ibkit::test_deadline_s(request, 120) == 2 + 120 + ibkit::kSizeMarginS);
  request.sizes = ibkit::all_message_sizes();
  REQUIRE(request.sizes.size() == 23);
  CHECK(request.sizes.front() == 2);
  CHECK(request.sizes.back() == 8u << 20);
  // 23 sizes of 2 s each: the deadline covers them all, and a margin for each.
  CHECK(ibkit::test_deadline_s(request, 20) == 23 * 2 + 20 + 23 * ibkit::kSizeMarginS);
  request.duration_s = 0;  // a count: only the margins
  CHECK(ibkit::test_deadline_s(request, 20) == 20 + 23 * ibkit::kSizeMarginS);
}

TEST_CASE("a sweep's pair deadline is derived from what its tests plan to run") {
  PairWorkload workload;
  workload.tests = {"lat", "bw", "tcp"};
  // lat by count, bw and tcp 2 s each at one size.
  CHECK(ibkit::planned_seconds(workload) == 4);
  const double margin = ibkit::kTestSetupMarginS + ibkit::kSizeMarginS;
  CHECK(ibkit::derived_pair_deadline_s(workload) == 4 + 3 * margin);

  // Seed 002's send_bw -a -q 4: 23 sizes of 2 s; tcp keeps one size.
  workload.tests = {"bw"};
  workload.sizes = ibkit::all_message_sizes();
  workload.qps = 4;
  CHECK(ibkit::planned_seconds(workload) == 46);
  CHECK(ibkit::derived_pair_deadline_s(workload) ==
        46 + ibkit::kTestSetupMarginS + 23 * ibkit::kSizeMarginS);
  workload.tests = {"bw", "tcp"};
  CHECK(ibkit::planned_seconds(workload) == 48);

  workload.duration_s = 5;
  CHECK(ibkit::planned_seconds(workload) == 23 * 5 + 5);
  workload.duration_s = 0;
  workload.iters = 10;  // counts: nothing planned by time, margins only
  CHECK(ibkit::planned_seconds(workload) == 0);
  CHECK(ibkit::derived_pair_deadline_s(workload) ==
        2 * ibkit::kTestSetupMarginS + 24 * ibkit::kSizeMarginS);
}
