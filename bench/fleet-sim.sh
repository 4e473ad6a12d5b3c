#!/bin/bash
# Benchmark, not a test: the fleet simulator (bench/fleet_sim.cpp) on the subnet tier's fat trees
# as opensm routed them: the whole sweep with faults injected by seed, its modeled time to a
# verdict, its own wall time, peak memory and blame against the truth, one line per scenario.
# The 1,024-host topology is the fixture the subnet tier holds current; the 4,096-host one is
# saved by the subnet tier's case_fat_tree_4096 into $FLEET_SIM_TOPOLOGIES (default
# build/topologies) the first time (root: network namespaces, like the subnet tier). Then, on
# the 1,024 hosts, the patterns without topo-blame's coverage for comparison.
# Targets (docs/scale.md): 1,024 hosts <= 300 modeled s, <= 50 ms a round, <= 1 GB; 4,096 hosts
# <= 600 modeled s, <= 2 GB; one fault exactly blamed in >= 99% of runs; ten at once node and
# link precision and recall >= 0.95; healthy: nothing blamed.
#   BUILD_DIR=build RUNS=100 bench/fleet-sim.sh [SCENARIO...]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
runs=${RUNS:-100}
topologies=${FLEET_SIM_TOPOLOGIES:-$build_dir/topologies}
ninja -C "$build_dir" ibkit ibkit_fleet_sim >/dev/null || exit 1
sim="$build_dir/bench/ibkit_fleet_sim"
fixture=tests/fixtures/topology/fat-tree-1024.topology

if [ ! -s "$topologies/fat-tree-4096.topology" ]; then
  echo "saving the 4,096-host fat tree's topology into $topologies (the subnet tier's case_fat_tree_4096)"
  SUBNET_CASES=case_fat_tree_4096 SUBNET_TOPOLOGIES="$(realpath -m "$topologies")" BUILD_DIR="$build_dir" \
    tests/subnet/run.sh >"$build_dir/fleet-sim-subnet.log" 2>&1 ||
    { echo "fleet sim: the subnet tier could not save it (see $build_dir/fleet-sim-subnet.log)" >&2; exit 1; }
fi

# timed LABEL COMMAND...: COMMAND's lines, then LABEL's wall time.
timed() {
  local label=$1 start
  shift
  start=$(date +%s.%N)
  "$@" || exit 1
  awk -v label="$label" -v start="$start" -v now="$(date +%s.%N)" 'BEGIN { printf "(%s: %.0f s)\n", label, now - start }'
}

timed "1,024 hosts, topo-blame" "$sim" "$fixture" --runs "$runs" "$@"
timed "4,096 hosts, topo-blame" "$sim" "$topologies/fat-tree-4096.topology" --runs "$((runs / 10 > 0 ? runs / 10 : 1))" "$@"
for pattern in topo ring+random:3; do
  timed "1,024 hosts, $pattern" "$sim" "$fixture" --pattern "$pattern" --runs "$((runs / 5 > 0 ? runs / 5 : 1))" \
    healthy node-0.5 link-0.5 mixed-10
done
