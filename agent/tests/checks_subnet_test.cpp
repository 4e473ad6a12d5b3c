// Readiness checks on sysfs trees the real opensm left on a simulated subnet (ibsim, umad2sim):
// tests/fixtures/sysfs/ibsim-*, written by `SUBNET_FIXTURES=1 tests/subnet/run.sh`. Each tree is
// the snapshot of one node's port at one step of the subnet tier; only link_layer and the
// hostname were added to what umad2sim wrote.
#include <catch2/catch.hpp>

#include "fixture_tree.hpp"

using namespace ibkit;
using namespace ibkit::test;
using ibkit::test::check;

namespace {

// Seed 000's back-to-back link trained at 4X DDR: 16 Gb/s of data.
constexpr const char* kDdrConfig = R"(
[expect]
link_layer = "InfiniBand"
ports = ["ibsim0/1"]
min_rate_gbps = 16
)";

// Seed 002's QDR switch: 32 Gb/s of data, the homelab inventory's ibkit_agent_min_rate_gbps.
constexpr const char* kQdrConfig = R"(
[expect]
link_layer = "InfiniBand"
ports = ["ibsim0/1"]
min_rate_gbps = 32
)";

}  // namespace

TEST_CASE("ibsim, before any subnet manager: INIT/LinkUp fails and names the missing SM",
          "[checks][subnet]") {
  FixtureTree tree("ibsim-no-sm");
  auto run = check(tree, kDdrConfig);
  const auto& state = find_result(run, "port.state", "ibsim0/1");
  CHECK(state.status == Status::kFail);
  CHECK(state.observed == "INIT/LinkUp");
  CHECK_THAT(state.hint, Catch::Contains("no subnet manager"));
  CHECK_THAT(state.hint, Catch::Contains("SM LID 0"));
  const auto& lid = find_result(run, "port.lid", "ibsim0/1");
  CHECK(lid.status == Status::kFail);
  CHECK(lid.observed == "LID 0, SM LID 0");
  CHECK_THAT(lid.hint, Catch::Contains("opensm"));
  CHECK(any_failed(run.results));
}

TEST_CASE("ibsim, opensm master on the peer: the port passes with its LID and the SM's LID",
          "[checks][subnet]") {
  FixtureTree tree("ibsim-active");
  auto run = check(tree, kDdrConfig);
  const auto& state = find_result(run, "port.state", "ibsim0/1");
  CHECK(state.status == Status::kPass);
  CHECK(state.observed == "ACTIVE/LinkUp");
  const auto& lid = find_result(run, "port.lid", "ibsim0/1");
  CHECK(lid.status == Status::kPass);
  CHECK(lid.observed == "LID 2, SM LID 1");
  const auto& rate = find_result(run, "port.rate", "ibsim0/1");
  CHECK(rate.status == Status::kPass);
  CHECK(rate.observed == "20 Gb/sec (4X DDR) = 16 Gb/s data");
}

TEST_CASE("ibsim, cable pulled under an active port: DOWN/Polling fails with the no-cable hint",
          "[checks][subnet]") {
  FixtureTree tree("ibsim-cable-pulled");
  auto run = check(tree, kDdrConfig);
  const auto& state = find_result(run, "port.state", "ibsim0/1");
  CHECK(state.status == Status::kFail);
  CHECK(state.observed == "DOWN/Polling");
  CHECK_THAT(state.hint, Catch::Contains("no cable"));
  // A port without a link has no LID result: the stale LID the port kept is not judged.
  CHECK(count_results(run, "port.lid", Status::kPass) == 0);
}

TEST_CASE("ibsim, after failover to the standby SM: the port passes and shows the new SM LID",
          "[checks][subnet]") {
  FixtureTree tree("ibsim-after-failover");
  auto run = check(tree, kQdrConfig);
  CHECK(find_result(run, "port.state", "ibsim0/1").status == Status::kPass);
  const auto& lid = find_result(run, "port.lid", "ibsim0/1");
  CHECK(lid.status == Status::kPass);
  // columbia's standby (LID 4) took over from viper (LID 1); the check shows the LID, not which
  // SM that is, and has no expected SM to compare it with.
  CHECK(lid.observed == "LID 3, SM LID 4");
  CHECK(find_result(run, "port.rate", "ibsim0/1").observed == "40 Gb/sec (4X QDR) = 32 Gb/s data");
}

TEST_CASE("ibsim, before any SM with SM LID set back: a port Initializing still fails",
          "[checks][subnet]") {
  // The SM assigned the LIDs, then the port fell back to INIT (an SM gone before activating it).
  FixtureTree tree("ibsim-active");
  tree.write("sys/class/infiniband/ibsim0/ports/1/state", "2: INIT");
  auto run = check(tree, kDdrConfig);
  const auto& state = find_result(run, "port.state", "ibsim0/1");
  CHECK(state.status == Status::kFail);
  CHECK(state.observed == "INIT/LinkUp");
  CHECK_THAT(state.hint, Catch::Contains("subnet manager"));
}
