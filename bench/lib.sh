# Shared by the scripts in bench/: a lab to measure on, medians of the rounds, and a host load
# to measure under. Sourced, after tests/lab/lib.sh's lab_init_logs.
# shellcheck shell=bash

BENCH_STARTED_LAB=0
BENCH_LOAD_PIDS=()

bench_cleanup() {
  [ "${#BENCH_LOAD_PIDS[@]}" -gt 0 ] && kill "${BENCH_LOAD_PIDS[@]}" 2>/dev/null
  [ "$BENCH_STARTED_LAB" -eq 1 ] && "$LABCTL" down >/dev/null 2>&1
  return 0
}
trap bench_cleanup EXIT

# bench_lab NODES: the running lab, or one of NODES nodes brought up now (and down at exit);
# on its first two nodes rxe0 set up and the agent pushed. Sets BENCH_ROWS (lab_nodes' rows).
bench_lab() {
  local nodes=$1 row name netdev
  if ! "$LABCTL" status >/dev/null 2>&1; then
    "$LABCTL" up --nodes "$nodes" || return 1
    BENCH_STARTED_LAB=1
  fi
  mapfile -t BENCH_ROWS < <(lab_nodes)
  for row in "${BENCH_ROWS[@]:0:2}"; do
    read -r name _ netdev <<<"$row"
    "$LABCTL" ssh "$name" "test -e /sys/class/infiniband/rxe0" ||
      lab_setup_rxe "$name" "$netdev" >/dev/null || return 1
    lab_push_agent "$name" >/dev/null || return 1
  done
}

# bench_share_key SERVER CLIENT: a key made for this run at $BENCH_KEY on both nodes. ibkit serve
# without a key listens on loopback only, so a two-node bench's server and client need one.
BENCH_KEY=/tmp/ibkit-bench.key
bench_share_key() {
  local server=$1 client=$2
  if ! "$LABCTL" ssh "$server" "umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n' >$BENCH_KEY" ||
    ! "$LABCTL" ssh "$server" "cat $BENCH_KEY" | "$LABCTL" ssh "$client" "umask 077; cat >$BENCH_KEY"; then
    echo "bench: could not share a key between $server and $client"
    return 1
  fi
}

# bench_load N: N busy loops on this host until the script exits. The lab's vCPUs then compete
# for the cores as they do while a build runs beside them, but the same way in every round.
bench_load() {
  local i
  for ((i = 0; i < $1; i++)); do
    (while :; do :; done) &
    BENCH_LOAD_PIDS+=($!)
  done
}

# bench_perftest SERVER CLIENT ADDRESS TOOL COLUMN ARGS: one perftest run, TOOL's server on
# SERVER and its client on CLIENT (the same node for a loopback) reaching ADDRESS; prints the
# first result row's COLUMN (5: typical latency, 4: average MB/s).
bench_perftest() {
  local server=$1 client=$2 address=$3 tool=$4 column=$5 args=$6
  LAB_STEP=$((LAB_STEP + 1))
  lab_pair "$server" "$client" "$LAB_PERFTEST_READY" "$tool -d rxe0 $args" "$tool -d rxe0 $args $address" |
    awk -v column="$column" '/^ *[0-9]+ +[0-9]+ +[0-9.]+/ { print $column; exit }'
}

# bench_fabric_broken NODE...: succeeds, printing "NODE: the kernel's line", when a node's kernel
# logged Soft-RoCE failing to tear down a queue pair (__rxe_cleanup timing out after a killed
# perftest): from then on that node's fabric NIC sends nothing, so every later round would only
# time out. Fails when no node logged it, or none answered within 20 s.
bench_fabric_broken() {
  local node line
  for node in "$@"; do
    line=$(timeout 20 "$LABCTL" ssh "$node" "dmesg | grep -m 1 -E 'rxe.*(cleanup|timed out|timeout)'" 2>/dev/null)
    if [ -n "$line" ]; then
      echo "$node: $line"
      return 0
    fi
  done
  return 1
}

# bench_json_figures FIELD: from an ibkit pair JSON report on stdin, one figure per verbs test
# in order, space-separated: the first size's typical latency (lat) or MiB/s (bw); with ways,
# a bidirectional test's MiB/s and its slower way's share of them (two figures).
bench_json_figures() {
  python3 -c '
import json, sys
text = sys.stdin.read()
report = json.loads(text[text.index("{"):text.rindex("}") + 1])
for test in report["tests"]:
    sizes = test.get("verbs", {}).get("sizes", [])
    if not sizes:
        print("")
        continue
    size = sizes[0]
    if sys.argv[1] == "ways":
        ways = [size.get(way, {}).get("mib_per_s", 0) for way in ("to_peer", "from_peer")]
        total = size["bandwidth"]["mib_per_s"]
        print(f"{total:.2f} {min(ways) / total:.3f}" if total > 0 and min(ways) > 0 else f"{total:.2f} x")
        continue
    value = size["latency"]["t_typical_us"] if sys.argv[1] == "lat" else size["bandwidth"]["mib_per_s"]
    print(f"{value:.2f}")
' "$1" 2>/dev/null | tr '\n' ' '
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bench_column_median C: the median of column C's figures in $LAB_LOGS/figures (rows of one
# round each; "x" where a figure is missing).
bench_column_median() { awk -v c="$1" '$c ~ /^[0-9.]+$/ { print $c }' "$LAB_LOGS/figures" | median; }

# bench_ratio_median A B: the median over rounds of column A / column B, rounds missing either
# left out. Both tools of a round run back to back under the same load, so their ratio cancels
# what changes between rounds; the ratio of two medians does not.
bench_ratio_median() {
  awk -v a="$1" -v b="$2" '$a ~ /^[0-9.]+$/ && $b ~ /^[0-9.]+$/ && $b > 0 { print $a / $b }' \
    "$LAB_LOGS/figures" | median
}
