#include <catch2/catch.hpp>

#include "pair/run_pair_tests.hpp"
#include "pair/test_budget.hpp"
#include "verbs/send_window.hpp"

using ibkit::build_pair_request;
using ibkit::kSizeMarginS;
using ibkit::kTestSetupMarginS;
using ibkit::PairPlan;
using ibkit::PairWorkload;

namespace {

constexpr double kMiB = 1 << 20;

}  // namespace

TEST_CASE("bandwidth and tcp run by duration unless a count is asked for, latency by count",
          "[pair]") {
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

TEST_CASE("by duration a queue pair keeps at most 16 MiB in flight, by count tx_depth", "[pair]") {
  using ibkit::send_window;
  // Up to 128 KiB messages the window is perftest's 128 requests either way.
  CHECK(send_window(2, 128, true) == 128);
  CHECK(send_window(65536, 128, true) == 128);
  CHECK(send_window(131072, 128, true) == 128);
  // Larger ones: 16 MiB, and never less than one request.
  CHECK(send_window(1 << 20, 128, true) == 16);
  CHECK(send_window(8 << 20, 128, true) == 2);
  CHECK(send_window(8 << 20, 1, true) == 1);
  CHECK(send_window(32 << 20, 128, true) == 1);
  // A count moves exactly what was asked: perftest's depth, whatever the size.
  CHECK(send_window(8 << 20, 128, false) == 128);
  CHECK(send_window(65536, 4096, true) == 256);
}

TEST_CASE("a test's deadline holds its duration, its margins and its window draining slowly",
          "[pair]") {
  ibkit::TestRequest request;
  request.test = "bw";
  request.sizes = {65536};
  request.duration_s = 2;
  // 2 s, the margin, 2 s for the size, and 128 x 64 KiB draining at 1 MiB/s: 8 s.
  CHECK(ibkit::test_deadline_s(request, 120) == Approx(2 + 120 + kSizeMarginS + 8));
  request.qps = 4;
  request.bidir = true;  // eight windows
  CHECK(ibkit::test_deadline_s(request, 120) == Approx(2 + 120 + kSizeMarginS + 64));

  request.qps = 1;
  request.bidir = false;
  request.sizes = ibkit::all_message_sizes();
  REQUIRE(request.sizes.size() == 23);
  CHECK(request.sizes.front() == 2);
  CHECK(request.sizes.back() == 8u << 20);
  // Windows: 128 messages up to 128 KiB (32 MiB - 256 B in all), 16 MiB for the 6 larger.
  const double drain = (32 * kMiB - 256 + 6 * 16 * kMiB) / kMiB;
  CHECK(ibkit::test_deadline_s(request, 20) == Approx(23 * 2 + 20 + 23 * kSizeMarginS + drain));

  request.duration_s = 0;  // a count: the margins, and no window to drain by a clock
  CHECK(ibkit::test_deadline_s(request, 20) == Approx(20 + 23 * kSizeMarginS));
  request.test = "tcp";
  request.sizes = {131072};
  request.duration_s = 2;
  CHECK(ibkit::test_deadline_s(request, 20) == Approx(2 + 20 + kSizeMarginS));
}

TEST_CASE("a sweep's pair deadline is derived from what its tests plan to run", "[pair]") {
  PairWorkload workload;
  workload.tests = {"lat", "bw", "tcp"};
  // lat by count, bw and tcp 2 s each at one size.
  CHECK(ibkit::planned_seconds(workload) == 4);
  CHECK(ibkit::derived_pair_deadline_s(workload) ==
        Approx(4 + 3 * (kTestSetupMarginS + kSizeMarginS) + 8));

  // Seed 002's send_bw -a -q 4: 23 sizes of 2 s; tcp keeps one size.
  workload.tests = {"bw"};
  workload.op = "send";
  workload.sizes = ibkit::all_message_sizes();
  workload.qps = 4;
  CHECK(ibkit::planned_seconds(workload) == 46);
  const double drain = 4 * (32 * kMiB - 256 + 6 * 16 * kMiB) / kMiB;
  CHECK(ibkit::derived_pair_deadline_s(workload) ==
        Approx(46 + kTestSetupMarginS + 23 * kSizeMarginS + drain));
  workload.tests = {"bw", "tcp"};
  CHECK(ibkit::planned_seconds(workload) == 48);

  workload.duration_s = 5;
  CHECK(ibkit::planned_seconds(workload) == 23 * 5 + 5);
  workload.duration_s = 0;
  workload.iters = 10;  // counts: nothing planned by time, margins only
  CHECK(ibkit::planned_seconds(workload) == 0);
  CHECK(ibkit::derived_pair_deadline_s(workload) ==
        Approx(2 * kTestSetupMarginS + 24 * kSizeMarginS));
}
