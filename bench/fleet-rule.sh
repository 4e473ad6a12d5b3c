#!/bin/bash
# Benchmark, not a test: the sweep's fleet rule on synthetic sweeps of 3, 4, 16 and 64 nodes
# (bench/fleet_rule.cpp): how often it flags a healthy fleet, with one pass over the first
# attempts and with the whole sweep (retests beside a control), and how often it gets a node or
# a link 5x and 10x slower exactly right. The figures in docs/verdicts.md came from this.
# About 30 min on 2 busy cores.
#   BUILD_DIR=build bench/fleet-rule.sh [healthy|faults|all]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
ninja -C "$build_dir" ibkit_fleet_bench >/dev/null || exit 1
bench="$build_dir/bench/ibkit_fleet_bench"
what=${1:-all}

if [ "$what" != faults ]; then
  "$bench" single
  "$bench" sweep
fi
if [ "$what" != healthy ]; then
  for fault in "node 5" "link 5" "node 10" "link 10"; do
    # shellcheck disable=SC2086  # "node 5" is two arguments
    "$bench" sweep $fault
  done
fi
