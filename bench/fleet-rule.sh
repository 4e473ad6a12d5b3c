#!/bin/bash
# Benchmark, not a test: the sweep's fleet rule on synthetic sweeps of 3 to 256 nodes
# (bench/fleet_rule.cpp), its line drawn from the fleet's spread beside today's fixed factors on
# the same sweeps: how often it flags a healthy fleet, with one pass over the first attempts and
# with the whole sweep (retests beside a control), and how often it gets a node or a link at
# half speed, 0.7x, 5x and 10x slower exactly right. The figures in docs/verdicts.md came from
# this. About 40 min on 2 busy cores.
#   BUILD_DIR=build bench/fleet-rule.sh [healthy|faults|all]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
ninja -C "$build_dir" ibkit_fleet_bench >/dev/null || exit 1
bench="$build_dir/bench/ibkit_fleet_bench"
what=${1:-all}

if [ "$what" != faults ]; then
  "$bench" single "" 3 4 16 64 256
  "$bench" sweep "" 3 4 16 64
fi
if [ "$what" != healthy ]; then
  # The commonest real faults, on quiet fabrics: half speed and 0.7x.
  for fault in "node 2" "link 2" "node 1.43" "link 1.43"; do
    # shellcheck disable=SC2086  # "node 2" is two arguments
    "$bench" single $fault lognormal 4 16 64 256
    # shellcheck disable=SC2086
    "$bench" sweep $fault lognormal 4 16 64
  done
  for fault in "node 5" "link 5" "node 10" "link 10"; do
    # shellcheck disable=SC2086
    "$bench" sweep $fault "" 3 4 16 64
  done
fi
