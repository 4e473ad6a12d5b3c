#!/bin/bash
# Benchmark, not a test: `ibkit report --format all` merging a synthetic all-pairs sweep of N
# nodes (each pair carrying what it measured, as a real sweep's do) with 64 node checks
# (bench/report_scale.cpp). Prints per size the wall time, peak RSS and the files' sizes, against
# the targets for 1,024 nodes: <= 10 s, <= 500 MB, report.json <= 50 MB, report.html <= 5 MB.
#   BUILD_DIR=build bench/report-scale.sh [NODES...]     (default 64 256 1024)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
ninja -C "$build_dir" ibkit ibkit_report_bench >/dev/null || exit 1
ibkit="$build_dir/agent/ibkit"
generate="$build_dir/bench/ibkit_report_bench"
[ "$#" -gt 0 ] || set -- 64 256 1024
work=$(mktemp -d /tmp/ibkit-report-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT

megabytes() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

printf "%6s %9s %8s %8s %12s %12s %10s %10s\n" nodes pairs "input MB" "write s" "peak RSS MB" \
  "report.json MB" "html MB" "junit MB"
for nodes in "$@"; do
  dir="$work/$nodes"
  "$generate" "$nodes" "$dir" || exit 1
  /usr/bin/time -f "%e %M" -o "$dir/time" \
    "$ibkit" report "$dir/sweep/report.json" "$dir"/checks/*.json --format all \
    --output "$dir/out" >"$dir/stdout" 2>"$dir/stderr"
  status=$?
  # 1 is a failing verdict (the synthetic sweep has a slow node and a failed link): expected.
  [ "$status" -le 1 ] || { echo "ibkit report exited $status:"; tail -3 "$dir/stderr"; exit 1; }
  # time prefixes "Command exited with non-zero status 1" when the verdict fails.
  read -r seconds rss_kb < <(tail -n 1 "$dir/time")
  printf "%6d %9d %8s %8.1f %12.0f %12s %10s %10s\n" "$nodes" $((nodes * (nodes - 1) / 2)) \
    "$(megabytes "$dir/sweep/report.json")" "$seconds" "$((rss_kb / 1000))" \
    "$(megabytes "$dir/out/report.json")" "$(megabytes "$dir/out/report.html")" \
    "$(megabytes "$dir/out/junit.xml")"
  rm -rf "$dir"
done
