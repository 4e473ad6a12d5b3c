#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/check_result.hpp"
#include "pair/run_pair_tests.hpp"
#include "verbs/device.hpp"
#include "verbs/rails.hpp"

namespace ibkit {

// The two ends of one loopback test on this node.
struct LoopbackTarget {
  DeviceChoice a;
  DeviceChoice b;
};

// What `ibkit pair --loopback` tests, from the node's rail ports (verbs/rails.hpp):
// - no device named: every Active port of every rail, each against itself;
// - `device` named: its Active ports among the rail ports, each against itself (the device
//   alone, its first Active port, when it is no rail: open_device then says what is wrong);
// - `device` and `peer_device`: one test from the first to the second (two HCAs of the node).
// Empty when nothing is named and the node has no rail. device.gid_index applies to every end.
std::vector<LoopbackTarget> loopback_targets(const std::vector<RailPort>& rail_ports,
                                             const DeviceChoice& device,
                                             const std::string& peer_device);

// Runs the plan's verbs tests (tcp is left out: it would never leave the node) between two
// queue pairs of this node, for every target of loopback_targets, every test and completion
// mode, in that order, each with its own deadline (deadline_s, plus duration_s per size, and
// no later than plan.until). The plan's device is side A's; use_cm and rail do not apply.
// A node without a usable device gives one failed outcome per test, naming why (its ends
// "(no port)"). Never throws.
PairTestsRun run_loopback_tests(const PairPlan& plan, const std::string& peer_device);

// What `ibkit check` runs with [expect] loopback = true: on every rail port, latency (send,
// 2 B, 1000 round trips) and bandwidth (RDMA write, 64 KiB, for 2 s), busy-polled.
PairPlan loopback_check_plan();

// Runs loopback_check_plan() and judges it as a pair is judged (judge_pair with `thresholds`),
// as check results: "loopback.latency", "loopback.bandwidth", "loopback.counters", and
// "loopback.lat" / "loopback.bw" for a test that could not run, naming why.
CheckResults run_loopback_check(const Thresholds& thresholds);

}  // namespace ibkit
