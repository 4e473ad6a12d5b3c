#!/bin/bash
# Benchmark, not a test: on one lab node, ibkit pair --loopback against perftest's loopback
# (a server and a client of the same tool on the same device, as run_perftest_loopback does),
# and event-driven completions against polling, in alternating rounds, with the ratios of the
# medians. With a second node up it also times events against polling between two nodes.
# Uses a running lab (RoCE set up on the nodes it uses) or brings up a 1-node lab itself.
#   bench/loopback-vs-perftest.sh [ROUNDS] [LAT_ITERS] [BW_ITERS]
# Figures: typical latency (us) and average bandwidth (MiB/s, 64 KiB RDMA writes).
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "$0")/../tests/lab/lib.sh"
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-5}
LAT_ITERS=${2:-1000}
BW_ITERS=${3:-300}
BW_SIZE=65536
IBKIT_PORT=18600  # perftest's exchange uses 18515

lab_init_logs bench-loopback
bench_lab 1 || exit 1
read -r NODE ADDRESS _ <<<"${BENCH_ROWS[0]}"
PEER=
[ "${#BENCH_ROWS[@]}" -ge 2 ] && read -r PEER _ <<<"${BENCH_ROWS[1]}"
if [ -n "$PEER" ] && ! bench_share_key "$NODE" "$PEER"; then
  echo "bench: timing events against polling on one node only"
  PEER=
fi

# perftest in loopback: its server and its client on NODE, the client to NODE's own address.
perftest_loopback() { bench_perftest "$NODE" "$NODE" "$ADDRESS" "$@"; }

ibkit_loopback() {
  local args=$1 field=$2
  "$LABCTL" ssh "$NODE" "timeout 150 $GUEST_IBKIT pair --loopback --format json $args" | bench_json_figures "$field"
}

# ibkit between NODE (serve --once) and PEER, one session; prints the typical latency.
ibkit_two_nodes() {
  LAB_STEP=$((LAB_STEP + 1))
  lab_pair "$NODE" "$PEER" "ss -Hltn 'sport = :$IBKIT_PORT' | grep -q LISTEN" \
    "ibkit serve --once --port $IBKIT_PORT --deadline 100 --key-file $BENCH_KEY" \
    "ibkit pair $ADDRESS --port $IBKIT_PORT --key-file $BENCH_KEY --format json $1" | bench_json_figures lat
}


echo "node $NODE ($ADDRESS)${PEER:+, peer $PEER}; $ROUNDS rounds, latency $LAT_ITERS round trips, bandwidth $BW_ITERS x 64 KiB"
printf 'round  perf_lat  ibkit_lat  perf_bw  ibkit_bw  perf_lat_ev  ibkit_poll  ibkit_ev  pair_poll  pair_ev\n'
: >"$LAB_LOGS/figures"
for round in $(seq 1 "$ROUNDS"); do
  p_lat=$(perftest_loopback ib_send_lat 5 "-s 2 -n $LAT_ITERS")
  i_lat=$(ibkit_loopback "--test lat --size 2 --iters $LAT_ITERS" lat)
  p_bw=$(perftest_loopback ib_write_bw 4 "-s $BW_SIZE -n $BW_ITERS")
  i_bw=$(ibkit_loopback "--test bw --op write --size $BW_SIZE --iters $BW_ITERS" bw)
  p_ev=$(perftest_loopback ib_send_lat 5 "-e -s 2 -n $LAT_ITERS")
  # Alternate which mode runs first, so neither always gets the warmer cache.
  if [ $((round % 2)) -eq 1 ]; then
    read -r i_poll i_ev <<<"$(ibkit_loopback "--test lat --size 2 --iters $LAT_ITERS --completions both" lat)"
  else
    i_ev=$(ibkit_loopback "--test lat --size 2 --iters $LAT_ITERS --events" lat)
    i_poll=$(ibkit_loopback "--test lat --size 2 --iters $LAT_ITERS" lat)
  fi
  pp=- pe=-
  if [ -n "$PEER" ]; then
    pp=$(ibkit_two_nodes "--test lat --size 2 --iters $LAT_ITERS")
    pe=$(ibkit_two_nodes "--test lat --size 2 --iters $LAT_ITERS --events")
  fi
  printf '%5s  %8s  %9s  %7s  %8s  %11s  %10s  %8s  %9s  %7s\n' "$round" "${p_lat:-?}" "${i_lat:-?}" \
    "${p_bw:-?}" "${i_bw:-?}" "${p_ev:-?}" "${i_poll:-?}" "${i_ev:-?}" "${pp:-?}" "${pe:-?}"
  echo "${p_lat:-x} ${i_lat:-x} ${p_bw:-x} ${i_bw:-x} ${p_ev:-x} ${i_poll:-x} ${i_ev:-x} ${pp:-x} ${pe:-x}" >>"$LAB_LOGS/figures"
done

echo
echo "medians over $ROUNDS rounds (Soft-RoCE under emulation, 1 vCPU per node: relative figures only)"
awk -v pl="$(bench_column_median 1)" -v il="$(bench_column_median 2)" -v pb="$(bench_column_median 3)" -v ib="$(bench_column_median 4)" \
  -v pe="$(bench_column_median 5)" -v ip="$(bench_column_median 6)" -v ie="$(bench_column_median 7)" \
  -v qp="$(bench_column_median 8)" -v qe="$(bench_column_median 9)" 'BEGIN {
  if (pl > 0 && il > 0) printf "loopback latency: ibkit %.1f us, perftest %.1f us, ratio %.3f\n", il, pl, il / pl
  if (pb > 0 && ib > 0) printf "loopback write bandwidth: ibkit %.2f MiB/s, perftest %.2f MiB/s, ratio %.3f (goal >= 0.95)\n", ib, pb, ib / pb
  if (ip > 0 && ie > 0) printf "loopback latency, events vs polling: ibkit %.1f us vs %.1f us, ratio %.3f\n", ie, ip, ie / ip
  if (pl > 0 && pe > 0) printf "loopback latency, events vs polling: perftest %.1f us vs %.1f us, ratio %.3f\n", pe, pl, pe / pl
  if (qp > 0 && qe > 0) printf "two-node latency, events vs polling: ibkit %.1f us vs %.1f us, ratio %.3f\n", qe, qp, qe / qp
}'
echo "perftest's loopback is two processes that each spin on their CQ: on a 1-vCPU node they take"
echo "turns on the CPU, so its polled latency measures the scheduler; ibkit drives both QPs from"
echo "one thread. Compare ibkit with perftest -e there, and both with perftest on a node with 2 cores."
[ "$BENCH_STARTED_LAB" -eq 1 ] && echo "(the lab this run started goes down now)"
exit 0
