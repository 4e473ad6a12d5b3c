#!/bin/bash
# Benchmark, not a test: ibkit pair against perftest between the same two lab nodes, in
# alternating rounds so both see the same conditions, and the ratios of their medians.
# Goals: ibkit's bandwidth >= 1.00x perftest's (ib_write_bw each way, the second node sending
# and then the first, and both ways at once: ib_write_bw -b against ibkit pair --bidir, the
# sweep's default), typical latency <= 1.02x (ib_send_lat), on a quiet host and a loaded one.
# Prints the ratio of the two medians and the median of each round's ratio (the steadier one
# under load, where rounds differ widely), and of ibkit's --bidir the slower way's share of the
# sum (0.50 when both ways get the same).
# Uses a running lab (RoCE set up on its first two nodes) or brings a 2-node lab up and down
# itself.
#   bench/pair-vs-perftest.sh [ROUNDS] [LAT_ITERS] [BW_ITERS] [BW_SECONDS] [LOAD]
# BW_SECONDS > 0 runs each bandwidth test for that long (perftest -D, ibkit --duration)
# instead of BW_ITERS messages: under emulation a run of under a second is mostly noise.
# LOAD > 0 keeps that many busy loops running on this host throughout (a loaded machine: the
# lab's vCPUs get less of the cores, as beside a build). Loaded, one tool's figure moves 5x from
# round to round (perftest's latency 378-2011 us in one run of 5): take 9 rounds of 3000 round
# trips there (bench/pair-vs-perftest.sh 9 3000 300 4 2), not the quiet host's 5 of 1000.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "$0")/../tests/lab/lib.sh"
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-5}
LAT_ITERS=${2:-1000}
BW_ITERS=${3:-300}
BW_SECONDS=${4:-0}
LOAD=${5:-0}
BW_SIZE=65536
IBKIT_PORT=18600  # perftest's exchange uses 18515

lab_init_logs bench
bench_lab 2 || exit 1
read -r SERVER SERVER_ADDRESS _ <<<"${BENCH_ROWS[0]}"
read -r CLIENT CLIENT_ADDRESS _ <<<"${BENCH_ROWS[1]}"

bench_share_key "$SERVER" "$CLIENT" || exit 1

perftest_figure() { bench_perftest "$SERVER" "$CLIENT" "$SERVER_ADDRESS" "$@"; }
# The same with the roles swapped: the first node's client sends to the second's server.
perftest_figure_back() { bench_perftest "$CLIENT" "$SERVER" "$CLIENT_ADDRESS" "$@"; }

# ibkit pair from CLIENT against a one-shot ibkit serve on SERVER at ADDRESS; prints the first
# test's figures for FIELD (bench_json_figures).
ibkit_pair_figure() {
  local server=$1 client=$2 address=$3 args=$4 field=$5 figures
  LAB_STEP=$((LAB_STEP + 1))
  figures=$(lab_pair "$server" "$client" "ss -Hltn 'sport = :$IBKIT_PORT' | grep -q LISTEN" \
    "ibkit serve --once --port $IBKIT_PORT --deadline 100 --key-file $BENCH_KEY" \
    "ibkit pair $address --port $IBKIT_PORT --key-file $BENCH_KEY --format json $args" |
    bench_json_figures "$field")
  # The first test's figure; with ways, its two.
  if [ "$field" = ways ]; then echo "$figures" | awk '{ print $1, $2 }'; else echo "${figures%% *}"; fi
}
ibkit_figure() { ibkit_pair_figure "$SERVER" "$CLIENT" "$SERVER_ADDRESS" "$@"; }
ibkit_figure_back() { ibkit_pair_figure "$CLIENT" "$SERVER" "$CLIENT_ADDRESS" "$@"; }

bench_load "$LOAD"
echo "host: $(nproc) cores, $LOAD busy loop(s) beside the lab"
printf 'round  perftest_lat_us  ibkit_lat_us  perftest_bw_MiBs  ibkit_bw_MiBs  perftest_back_MiBs  ibkit_back_MiBs  perftest_bidir_MiBs  ibkit_bidir_MiBs  ibkit_slower_way\n'
: >"$LAB_LOGS/figures"
if [ "$BW_SECONDS" != 0 ]; then
  perftest_bw_length="-D $BW_SECONDS" ibkit_bw_length="--duration $BW_SECONDS"
else
  perftest_bw_length="-n $BW_ITERS" ibkit_bw_length="--iters $BW_ITERS"
fi
for round in $(seq 1 "$ROUNDS"); do
  p_lat=$(perftest_figure ib_send_lat 5 "-s 2 -n $LAT_ITERS")
  i_lat=$(ibkit_figure "--test lat --size 2 --iters $LAT_ITERS" lat)
  p_bw=$(perftest_figure ib_write_bw 4 "-s $BW_SIZE $perftest_bw_length")
  i_bw=$(ibkit_figure "--test bw --op write --size $BW_SIZE $ibkit_bw_length" bw)
  p_back=$(perftest_figure_back ib_write_bw 4 "-s $BW_SIZE $perftest_bw_length")
  i_back=$(ibkit_figure_back "--test bw --op write --size $BW_SIZE $ibkit_bw_length" bw)
  p_bidir=$(perftest_figure ib_write_bw 4 "-b -s $BW_SIZE $perftest_bw_length")
  read -r i_bidir i_share <<<"$(ibkit_figure "--test bw --op write --bidir --size $BW_SIZE $ibkit_bw_length" ways)"
  # A figure missing: if the lab's kernel broke, later rounds would only time out, and the
  # rounds before it are the result.
  missing=0
  for figure in "$p_lat" "$i_lat" "$p_bw" "$i_bw" "$p_back" "$i_back" "$p_bidir" "$i_bidir"; do
    [ -n "$figure" ] || missing=1
  done
  if [ "$missing" -eq 1 ]; then
    if broken=$(bench_fabric_broken "$SERVER" "$CLIENT"); then
      echo "round $round: the lab's fabric broke, a Soft-RoCE fault in the guest kernel ($broken);"
      echo "the medians below are of the rounds before it"
      break
    fi
  fi
  printf '%5s  %15s  %12s  %16s  %13s  %18s  %15s  %19s  %16s  %16s\n' "$round" "${p_lat:-?}" "${i_lat:-?}" \
    "${p_bw:-?}" "${i_bw:-?}" "${p_back:-?}" "${i_back:-?}" "${p_bidir:-?}" "${i_bidir:-?}" "${i_share:-?}"
  echo "${p_lat:-x} ${i_lat:-x} ${p_bw:-x} ${i_bw:-x} ${p_bidir:-x} ${i_bidir:-x} ${p_back:-x} ${i_back:-x} ${i_share:-x}" \
    >>"$LAB_LOGS/figures"
done

p_lat=$(bench_column_median 1); i_lat=$(bench_column_median 2)
p_bw=$(bench_column_median 3); i_bw=$(bench_column_median 4)
p_bidir=$(bench_column_median 5); i_bidir=$(bench_column_median 6)
p_back=$(bench_column_median 7); i_back=$(bench_column_median 8); i_share=$(bench_column_median 9)
echo
echo "medians over $ROUNDS rounds, $LOAD busy loop(s) on the host (Soft-RoCE under emulation: relative figures only)"
awk -v pl="$p_lat" -v il="$i_lat" -v pb="$p_bw" -v ib="$i_bw" -v pd="$p_bidir" -v id="$i_bidir" \
  -v pk="$p_back" -v ik="$i_back" -v share="$i_share" -v rk="$(bench_ratio_median 8 7)" \
  -v rl="$(bench_ratio_median 2 1)" -v rb="$(bench_ratio_median 4 3)" -v rd="$(bench_ratio_median 6 5)" 'BEGIN {
  if (pl > 0 && il > 0) printf "typical latency: ibkit %.1f us, perftest %.1f us, ratio %.3f; per-round ratio %.3f (goal <= 1.02)\n", il, pl, il / pl, rl
  if (pb > 0 && ib > 0) printf "write bandwidth: ibkit %.2f MiB/s, perftest %.2f MiB/s, ratio %.3f; per-round ratio %.3f (goal >= 1.00)\n", ib, pb, ib / pb, rb
  if (pk > 0 && ik > 0) printf "write bandwidth the other way: ibkit %.2f MiB/s, perftest %.2f MiB/s, ratio %.3f; per-round ratio %.3f (goal >= 1.00)\n", ik, pk, ik / pk, rk
  if (pd > 0 && id > 0) printf "write bandwidth both ways (sum): ibkit %.2f MiB/s, perftest %.2f MiB/s, ratio %.3f; per-round ratio %.3f (goal >= 1.00)\n", id, pd, id / pd, rd
  if (share > 0) printf "ibkit --bidir: the slower way carried %.2f of the sum (median; 0.50 is an even split)\n", share
}'
[ "$BENCH_STARTED_LAB" -eq 1 ] && echo "(the lab this run started goes down now)"
exit 0
