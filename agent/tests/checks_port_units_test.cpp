// The per-port checks called one at a time on a fixture's context: fabric ports, state, rate,
// LID, error counters, MTU, IPoIB and transport counters, and link flaps against a counter
// snapshot (model/counter_snapshot.hpp), each with the state a broken node leaves.
#include <catch2/catch.hpp>

#include "checks/check_context.hpp"
#include "checks/ipoib_checks.hpp"
#include "checks/link_flap_check.hpp"
#include "checks/mtu_check.hpp"
#include "checks/port_checks.hpp"
#include "checks/transport_check.hpp"
#include "fixture_tree.hpp"
#include "model/counter_snapshot.hpp"
#include "sysfs/hca.hpp"

using namespace ibkit;
using namespace ibkit::test;

namespace {

const std::string kPort1 = "sys/class/infiniband/mthca0/ports/1/";

template <class Check>
CheckResults run_one(const FixtureTree& tree, Check check) {
  return run_one_check(tree, kMthcaPort1Config, check);
}

const CheckResult& subject(const CheckResults& results, const std::string& name) {
  for (const auto& result : results) {
    if (result.subject.rfind(name, 0) == 0) return result;
  }
  FAIL("no result for " << name);
  return results.front();
}

}  // namespace

TEST_CASE("port checks: one Active port of two is a fabric, the required one must be up",
          "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto fabric = run_one(tree, check_fabric);
  CHECK(subject(fabric, "srv1").observed == "1 Active of 2 InfiniBand port(s)");
  const auto states = run_one(tree, check_port_states);
  CHECK(subject(states, "mthca0/1").status == Status::kPass);
  CHECK(subject(states, "mthca0/2").status == Status::kSkip);  // not required
  tree.write(kPort1 + "state", "1: DOWN");
  const auto down = run_one(tree, check_port_states);
  CHECK(subject(down, "mthca0/1").status == Status::kFail);
}

TEST_CASE("port checks: the rate against min_rate_gbps, the LID, the error counters", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  CHECK(subject(run_one(tree, check_port_rates), "mthca0/1").observed ==
        "20 Gb/sec (4X DDR) = 16 Gb/s data");
  tree.write(kPort1 + "rate", "10 Gb/sec (4X)");
  CHECK(subject(run_one(tree, check_port_rates), "mthca0/1").status == Status::kFail);

  CHECK(subject(run_one(tree, check_port_lids), "mthca0/1").observed == "LID 1, SM LID 2");
  tree.write(kPort1 + "lid", "0x0");
  CHECK(subject(run_one(tree, check_port_lids), "mthca0/1").status == Status::kFail);

  CHECK(subject(run_one(tree, check_port_counters), "mthca0/1").observed == "no errors");
  tree.write(kPort1 + "counters/symbol_error", "5000");
  const auto errors = run_one(tree, check_port_counters);
  CHECK(subject(errors, "mthca0/1").status == Status::kFail);
  CHECK_THAT(subject(errors, "mthca0/1").observed, Catch::Contains("symbol_error"));
}

TEST_CASE("port mtu: skipped without [expect].active_mtu", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto results = run_one(tree, check_port_mtus);
  CHECK(subject(results, "mthca0/1").status == Status::kSkip);
  CHECK_THAT(subject(results, "mthca0/1").hint, Catch::Contains("active_mtu"));
}

TEST_CASE("ipoib: connected mode and its MTU pass, datagram where connected is wanted fails",
          "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto good = run_one(tree, check_ipoib);
  for (const auto& result : good) CHECK(result.status == Status::kPass);
  CHECK(subject(good, "mthca0/1").subject == "mthca0/1 (ib0)");
  tree.write("sys/class/net/ib0/mode", "datagram");
  bool mode_failed = false;
  for (const auto& result : run_one(tree, check_ipoib))
    mode_failed |= result.id == "ipoib.mode" && result.status == Status::kFail;
  CHECK(mode_failed);
  const SysfsRoot root = tree.root();
  const auto hcas = scan_hcas(root);
  REQUIRE_FALSE(hcas.empty());
  CHECK(preferred_ipoib_mode(hcas[0]) == "connected");  // mthca
}

TEST_CASE("transport: skipped where the driver keeps no hw_counters", "[checks]") {
  FixtureTree tree("mthca-ddr-2port");
  const auto results = run_one(tree, check_transport_counters);
  REQUIRE(results.size() == 2);
  CHECK(results[0].status == Status::kSkip);
  CHECK(results[0].observed == "no transport counters");
}

TEST_CASE("counter snapshot and link flaps: a link_downed rise since the snapshot is a flap",
          "[checks][model]") {
  FixtureTree tree("mthca-ddr-2port");
  const SysfsRoot root = tree.root();
  const Config config = config_from(kMthcaPort1Config);
  const CheckContext before = gather_context(root, config);
  const CounterSnapshot snapshot = take_counter_snapshot(before.hcas, "srv1", "boot-1", 1000);
  CHECK(snapshot.host == "srv1");
  REQUIRE(snapshot.ports.count("mthca0/1") == 1);
  CHECK(snapshot.ports.at("mthca0/1").at("link_downed") == 0);

  CounterBaseline baseline;
  baseline.now = 1600;
  baseline.previous = snapshot;
  CheckResults quiet;
  check_link_flaps(before, baseline, quiet);
  CHECK(subject(quiet, "mthca0/1").status == Status::kPass);

  tree.write(kPort1 + "counters/link_downed", "2");
  const CheckContext after = gather_context(root, config);
  CheckResults flapped;
  check_link_flaps(after, baseline, flapped);
  CHECK(subject(flapped, "mthca0/1").status == Status::kFail);
  CHECK_THAT(subject(flapped, "mthca0/1").observed, Catch::Contains("2"));

  CheckResults first;
  check_link_flaps(after, CounterBaseline{}, first);  // nothing to compare with
  REQUIRE_FALSE(first.empty());
  for (const auto& result : first) CHECK(result.status == Status::kSkip);
}
