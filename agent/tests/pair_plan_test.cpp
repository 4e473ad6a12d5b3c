// The request each test of a pair plan sends: the defaults `ibkit pair` and a sweep's drive rely
// on.
#include "pair/pair_plan.hpp"

#include <catch2/catch.hpp>

using namespace ibkit;

TEST_CASE("pair plan: each test's defaults, and tcp's single size", "[pair]") {
  PairPlan plan;
  plan.tests = {"lat", "bw", "tcp"};
  const auto lat = build_pair_request(plan, "lat");
  CHECK(lat.op == "send");
  CHECK(lat.sizes == std::vector<std::uint64_t>{2});
  CHECK(lat.iters == 1000);
  CHECK(lat.duration_s == 0);
  const auto bw = build_pair_request(plan, "bw");
  CHECK(bw.op == "write");
  CHECK(bw.sizes == std::vector<std::uint64_t>{65536});
  CHECK(bw.duration_s == kDefaultTestDurationS);
  CHECK(bw.iters == 0);
  const auto tcp = build_pair_request(plan, "tcp");
  CHECK(tcp.sizes == std::vector<std::uint64_t>{131072});

  // Sizes given apply to the verbs tests; tcp takes one only when one is given.
  plan.sizes = {4096, 8192};
  plan.rail = 1;
  plan.completions = Completions::kEvents;
  CHECK(build_pair_request(plan, "bw").sizes == plan.sizes);
  CHECK(build_pair_request(plan, "tcp").sizes == std::vector<std::uint64_t>{131072});
  CHECK(build_pair_request(plan, "bw").rail == 1);
  CHECK_FALSE(build_pair_request(plan, "tcp").rail);
  CHECK(build_pair_request(plan, "lat").events);
  CHECK_FALSE(build_pair_request(plan, "tcp").events);
}

TEST_CASE("pair plan: completions run each verbs test polled, with events, or both", "[pair]") {
  CHECK(completion_events_of(Completions::kPoll) == std::vector<bool>{false});
  CHECK(completion_events_of(Completions::kEvents) == std::vector<bool>{true});
  CHECK(completion_events_of(Completions::kBoth) == std::vector<bool>{false, true});
  PairWorkload counted;
  counted.iters = 500;
  CHECK(test_duration_s(counted, "bw") == 0);
  PairWorkload timed;
  timed.duration_s = 5;
  CHECK(test_duration_s(timed, "bw") == 5);
  CHECK(test_duration_s(timed, "lat") == 0);
}
