#!/bin/bash
# Benchmark, not a test: all-pairs TCP sweeps over N agents in network namespaces (the host
# tier's setup, tests/host/sweep.sh), timed against the ideal of rounds x per-pair time.
# Prints, per run, the wall time, two ideals and their ratios:
#   rounds x test duration   what the pairs' TCP transfers alone would take
#   rounds x mean pair time  the same with each pair's own connect and handshake (as A
#                            measured them), so the rest is the coordinator's overhead per round
# and whether the kernel's neighbour table overflowed (the harness's fault, not the sweep's).
#   RUNS=3 bench/sweep-overhead.sh [NODES...]     (default 16 64 128; needs root, as the host tier)
# At 128 agents a run takes about 2.5 min on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
runs=${RUNS:-3}
[ "$#" -gt 0 ] || set -- 16 64 128

# The kernel's neighbour-table overflows (table_fulls, summed over CPUs, in hex): a harness
# that overflows it drops SYNs, and the figures would measure that instead of the sweep.
neighbour_overflows() {
  local total=0 row
  while read -r -a row; do
    [[ ${row[-1]} =~ ^[0-9a-f]+$ ]] && total=$((total + 16#${row[-1]}))
  done </proc/net/stat/arp_cache
  echo "$total"
}

printf "%5s %6s %8s %8s %10s %11s %10s %14s %9s\n" nodes rounds "wall s" "ideal s" wall/ideal \
  "pair-time s" wall/pair overhead/round overflows
for nodes in "$@"; do
  overflows_before=$(neighbour_overflows)
  results=$(SWEEP_NODES="$nodes" SWEEP_BENCH=1 SWEEP_BENCH_RUNS="$runs" tests/host/sweep.sh) || {
    echo "$results"
    exit 1
  }
  overflows=$(($(neighbour_overflows) - overflows_before))
  echo "$results" | awk -v overflows="$overflows" '
    NF == 5 {
      ideal = $2 * $3; paired = $2 * $5
      printf "%5d %6d %8.2f %8.2f %10.2f %11.3f %10.2f %11.0f ms %9d\n", $1, $2, $4, ideal,
             $4 / ideal, $5, $4 / paired, ($4 - paired) / $2 * 1000, overflows
    }'
done
