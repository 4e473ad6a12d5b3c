// The Slurm health decision (slurm/health_action.hpp) for every kind of node state, reason
// and verdict, and the parsing of scontrol's one-line node form it is fed from.
#include "slurm/health_action.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "slurm/slurm_node.hpp"

using ibkit::decide_health_action;
using ibkit::HealthActionKind;
using ibkit::SlurmNode;

namespace {

const std::string kNewReason = "ibkit: port.state mlx5_0/1 DOWN/Polling";

struct Case {
  const char* state;
  const char* reason;
  bool healthy;
  HealthActionKind expected;
};

// Every state class (schedulable, draining, drained, down, down and drained, failed, not
// responding) against every reason class (none, ibkit's current, ibkit's older, an admin's)
// and both verdicts.
const Case kCases[] = {
    // Failed check.
    {"IDLE", "", false, HealthActionKind::kDrain},
    {"MIXED", "", false, HealthActionKind::kDrain},
    {"ALLOCATED", "", false, HealthActionKind::kDrain},
    {"IDLE*", "", false, HealthActionKind::kDrain},
    {"IDLE+COMPLETING", "", false, HealthActionKind::kDrain},
    {"IDLE+DRAIN", "ibkit: port.state mlx5_0/1 DOWN/Polling", false, HealthActionKind::kNothing},
    {"IDLE+DRAIN", "ibkit: memlock node 64 KiB", false, HealthActionKind::kUpdateReason},
    {"MIXED+DRAIN", "ibkit: memlock node 64 KiB", false, HealthActionKind::kUpdateReason},
    {"IDLE+DRAIN", "maintenance", false, HealthActionKind::kNothing},
    {"ALLOCATED+DRAIN", "maintenance", false, HealthActionKind::kNothing},
    {"IDLE+DRAIN", "", false, HealthActionKind::kNothing},
    {"DOWN", "Not responding", false, HealthActionKind::kNothing},
    {"DOWN*", "", false, HealthActionKind::kNothing},
    {"DOWN+DRAIN", "maintenance", false, HealthActionKind::kNothing},
    {"DOWN+DRAIN", "ibkit: memlock node 64 KiB", false, HealthActionKind::kUpdateReason},
    {"IDLE+FAIL", "bad DIMM", false, HealthActionKind::kNothing},
    {"IDLE+DRAIN+FAIL", "bad DIMM", false, HealthActionKind::kNothing},
    // Passed check.
    {"IDLE", "", true, HealthActionKind::kNothing},
    {"MIXED", "", true, HealthActionKind::kNothing},
    {"IDLE+DRAIN", "ibkit: port.state mlx5_0/1 DOWN/Polling", true, HealthActionKind::kResume},
    {"MIXED+DRAIN", "ibkit: memlock node 64 KiB", true, HealthActionKind::kResume},
    {"IDLE+DRAIN", "maintenance", true, HealthActionKind::kNothing},
    {"IDLE+DRAIN", "", true, HealthActionKind::kNothing},
    {"IDLE+DRAIN", "ibkitten ate the cable", true, HealthActionKind::kNothing},
    {"DOWN", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"DOWN+DRAIN", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"DOWN", "Not responding", true, HealthActionKind::kNothing},
    {"IDLE+FAIL", "bad DIMM", true, HealthActionKind::kNothing},
    {"IDLE", "ibkit: stale reason on a node an admin resumed", true, HealthActionKind::kNothing},
    // A reboot asked for by an administrator (scontrol reboot ASAP) is never cancelled by a resume.
    {"IDLE+DRAIN+REBOOT_REQUESTED", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"DRAIN+REBOOT_REQUESTED", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"MIXED+DRAIN+REBOOT_ISSUED", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"IDLE@+DRAIN", "ibkit: memlock node 64 KiB", true, HealthActionKind::kNothing},
    {"IDLE+REBOOT_REQUESTED", "", false, HealthActionKind::kDrain},
};

}  // namespace

TEST_CASE("health decision: every state, reason and verdict", "[slurm]") {
  for (const auto& c : kCases) {
    INFO("State=" << c.state << " Reason=" << c.reason << " healthy=" << c.healthy);
    const auto action = decide_health_action({"n1", c.state, c.reason}, c.healthy, kNewReason);
    CHECK(action.kind == c.expected);
    const bool sets_reason =
        c.expected == HealthActionKind::kDrain || c.expected == HealthActionKind::kUpdateReason;
    CHECK(action.reason == (sets_reason ? kNewReason : ""));
  }
}

TEST_CASE("health decision: a node left alone says whose it is, a healthy free node is quiet",
          "[slurm]") {
  auto admin = decide_health_action({"n1", "IDLE+DRAIN", "maintenance"}, false, kNewReason);
  CHECK_THAT(admin.note, Catch::Contains("left alone") && Catch::Contains("maintenance"));
  CHECK(decide_health_action({"n1", "IDLE", ""}, true, "").note.empty());
  auto resumed = decide_health_action({"n1", "IDLE+DRAIN", kNewReason}, true, "");
  CHECK_THAT(resumed.note, Catch::Contains("resumed"));
  auto rebooting = decide_health_action({"n1", "IDLE+DRAIN+REBOOT_ISSUED", kNewReason}, true, "");
  CHECK_THAT(rebooting.note, Catch::Contains("not resumed") && Catch::Contains("reboot"));
}

TEST_CASE("scontrol -o show node: state and a reason with spaces, without the user stamp",
          "[slurm]") {
  auto node = ibkit::parse_scontrol_node(
      "NodeName=c01 Arch=x86_64 CoresPerSocket=8 State=IDLE+DRAIN ThreadsPerCore=1 "
      "Reason=ibkit: port.state mlx5_0/1 DOWN/Polling (+2 more) [root@2024-05-01T10:00:00]\n");
  REQUIRE(node);
  CHECK(node->name == "c01");
  CHECK(node->state == "IDLE+DRAIN");
  CHECK(node->reason == "ibkit: port.state mlx5_0/1 DOWN/Polling (+2 more)");
}

TEST_CASE("scontrol -o show node: the reason without a stamp, none, and (null)", "[slurm]") {
  auto stampless = ibkit::parse_scontrol_node("NodeName=c01 State=DOWN* Reason=Not responding");
  REQUIRE(stampless);
  CHECK(stampless->reason == "Not responding");
  auto none = ibkit::parse_scontrol_node("NodeName=c01 State=IDLE ThreadsPerCore=1");
  REQUIRE(none);
  CHECK(none->reason.empty());
  auto null = ibkit::parse_scontrol_node("NodeName=c01 State=IDLE Reason=(null)");
  REQUIRE(null);
  CHECK(null->reason.empty());
  auto brackets = ibkit::parse_scontrol_node(
      "NodeName=c01 State=IDLE+DRAIN Reason=swap DIMM [slot A2] [slurm@2024-05-01T10:00:00]");
  REQUIRE(brackets);
  CHECK(brackets->reason == "swap DIMM [slot A2]");
}

TEST_CASE("scontrol -o show node: a line without NodeName or State is an error", "[slurm]") {
  CHECK_FALSE(ibkit::parse_scontrol_node(""));
  CHECK_FALSE(ibkit::parse_scontrol_node("Node c01 not found"));
  CHECK_FALSE(ibkit::parse_scontrol_node("NodeName=c01 Arch=x86_64"));
  // A key must start a word: OldState= is not State=.
  CHECK_FALSE(ibkit::parse_scontrol_node("NodeName=c01 OldState=IDLE"));
}

TEST_CASE("node condition: base state, flags and the not-responding mark", "[slurm]") {
  CHECK(ibkit::node_condition("IDLE+DRAIN").drain);
  CHECK_FALSE(ibkit::node_condition("IDLE+DRAIN").down);
  CHECK(ibkit::node_condition("DOWN*").down);
  CHECK_FALSE(ibkit::node_condition("DOWN*").responding);
  CHECK(ibkit::node_condition("MIXED+FAIL").down);
  CHECK_FALSE(ibkit::node_condition("MIXED").drain);
  CHECK_FALSE(ibkit::node_condition("IDLE+RESERVED").drain);
  CHECK(ibkit::node_condition("DRAINED").drain);
  CHECK(ibkit::node_condition("IDLE+DRAIN+REBOOT_REQUESTED").reboot_pending);
  CHECK(ibkit::node_condition("DOWN+REBOOT_ISSUED").reboot_pending);
  CHECK(ibkit::node_condition("IDLE@").reboot_pending);
  CHECK_FALSE(ibkit::node_condition("IDLE+DRAIN").reboot_pending);
}
