#!/bin/bash
# Benchmark, not a test: an all-pairs TCP sweep over N agents in network namespaces (the host
# tier's setup, tests/host/sweep.sh), timed against the ideal of rounds x per-pair time.
# Prints, per run, the wall time, two ideals and their ratios:
#   rounds x test duration   what the pairs' TCP transfers alone would take
#   rounds x mean pair time  the same with each pair's own connect and handshake (as A
#                            measured them), so the rest is the coordinator's overhead per round
#   bench/sweep-overhead.sh [NODES=16] [RUNS=3]       needs root, as the host tier
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
nodes=${1:-16}
runs=${2:-3}

results=$(SWEEP_NODES="$nodes" SWEEP_BENCH=1 SWEEP_BENCH_RUNS="$runs" tests/host/sweep.sh) || {
  echo "$results"
  exit 1
}
echo "$results" | awk '
  BEGIN { printf "%5s %6s %8s %8s %10s %11s %10s %13s\n", "nodes", "rounds", "wall s",
          "ideal s", "wall/ideal", "pair-time s", "wall/pair", "overhead/round" }
  NF == 5 {
    ideal = $2 * $3; paired = $2 * $5
    printf "%5d %6d %8.2f %8.2f %10.2f %11.3f %10.2f %11.0f ms\n", $1, $2, $4, ideal, $4 / ideal,
           $5, $4 / paired, ($4 - paired) / $2 * 1000
  }'
