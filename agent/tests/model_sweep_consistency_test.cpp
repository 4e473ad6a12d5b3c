// A sweep report that agrees with itself, and the ways a crafted one does not
// (model/sweep_consistency.hpp).
#include <catch2/catch.hpp>

#include "model/sweep_consistency.hpp"
#include "sweep_sample.hpp"

using namespace ibkit;

TEST_CASE("sweep consistency: the sample agrees with itself, each kind of disagreement is named",
          "[model]") {
  CHECK(check_sweep_consistency(test::sample_sweep()));
  CHECK(check_report_size(4, 1));
  const auto too_big = check_report_size(kMaxSweepNodes + 1, 1);
  REQUIRE_FALSE(too_big);
  CHECK_THAT(too_big.error().message, Catch::Contains("fewer"));

  SweepReport twice = test::sample_sweep();
  twice.nodes.push_back(twice.nodes.front());
  CHECK_FALSE(check_sweep_consistency(twice));

  SweepReport stranger = test::sample_sweep();
  stranger.pairs[2].a = "lab9";
  const auto named = check_sweep_consistency(stranger);
  REQUIRE_FALSE(named);
  CHECK(named.error().message == "field pairs[2].a \"lab9\" is not one of nodes");

  SweepReport repeated = test::sample_sweep();
  repeated.pairs.push_back(repeated.pairs.front());
  CHECK_FALSE(check_sweep_consistency(repeated));

  SweepReport blamed = test::sample_sweep();
  blamed.blamed.push_back({"lab9", "gone"});
  CHECK_FALSE(check_sweep_consistency(blamed));
}
