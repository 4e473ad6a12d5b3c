#!/bin/bash
# Benchmark, not a test: how long `ibkit sweep --dry-run` takes to read N hosts and build each
# pattern's schedule, and its peak RSS, against all-pairs of the same hosts in the same run (the
# schedule every other pattern is a part of). --deadline does not count this time, so a pattern
# should cost no more than all-pairs: ratios at or below 1.0. A run past 120 s is cut and shown
# as such.
#   BUILD_DIR=build bench/schedule-scale.sh [NODES...]     (default 1024 2048 4096)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
ninja -C "$build_dir" ibkit >/dev/null || exit 1
ibkit="$build_dir/agent/ibkit"
[ "$#" -gt 0 ] || set -- 1024 2048 4096
work=$(mktemp -d /tmp/ibkit-schedule-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT

# dry_run HOSTS PATTERN: "SECONDS PEAK_KB" of one dry run, or "cut" past 120 s.
dry_run() {
  timeout 120 /usr/bin/time -f "%e %M" -o "$work/time" \
    "$ibkit" sweep --hosts "$1" --pattern "$2" --dry-run >"$work/out" 2>&1
  local status=$?
  [ "$status" -eq 124 ] && { echo cut; return; }
  [ "$status" -eq 0 ] || { echo "ibkit sweep --pattern $2 exited $status: $(tail -n 1 "$work/out")" >&2; exit 1; }
  tail -n 1 "$work/time"
}

printf "%6s %-22s %10s %10s %12s %8s\n" nodes pattern seconds "x all-pairs" "peak RSS MB" rounds
for nodes in "$@"; do
  hosts="$work/hosts-$nodes"
  awk -v n="$nodes" 'BEGIN { for (i = 0; i < n; i++)
    printf "n%d 10.%d.%d.%d\n", i, int(i / 62500), int(i / 250) % 250, i % 250 + 1 }' >"$hosts"
  reference=""
  for pattern in all-pairs random:3 "random:$((nodes / 2))" "random:$((nodes - 1))" \
    ring+random:3 "ring+random:$((nodes / 8))"; do
    read -r seconds rss_kb < <(dry_run "$hosts" "$pattern")
    [ -n "${seconds:-}" ] || exit 1
    if [ "$seconds" = cut ]; then
      printf "%6d %-22s %10s\n" "$nodes" "$pattern" "over 120"
      continue
    fi
    [ -n "$reference" ] || reference=$seconds
    rounds=$(grep -o '[0-9]* rounds' "$work/out" | cut -d' ' -f1)
    printf "%6d %-22s %10.2f %10.2f %12.0f %8s\n" "$nodes" "$pattern" "$seconds" \
      "$(awk -v a="$seconds" -v b="$reference" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
      "$((rss_kb / 1000))" "$rounds"
  done
done
