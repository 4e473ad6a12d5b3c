#!/bin/bash
# Benchmark, not a test: `ibkit fabric` (discovery, SMInfo, every linked port's PortCounters, the
# checks) on ibsim's two-level fat trees, against ibnetdiscover on the same fabric in the same
# run (the walk alone, without counters or checks), in turn, three times each. Prints the median
# seconds, the largest peak RSS and the ratio of the medians; the
# target at 4,096 hosts is 10 s and 200 MB. The simulator answers every datagram on this machine,
# so both figures include it alike. Needs root (network namespaces), like the subnet tier.
#   BUILD_DIR=build bench/fabric-scale.sh [LEAVESxHOSTS...]     (default 32x32 64x32 128x32)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
subnet_who="fabric bench"
# Three shapes, each brought up and measured six times, outlive the subnet tier's bounds.
subnet_sim_seconds=1800 subnet_sm_seconds=1800
# shellcheck source-path=SCRIPTDIR/.. source=tests/subnet/lib.sh
source tests/subnet/lib.sh
[ "$#" -gt 0 ] || set -- 32x32 64x32 128x32

# timed FABRIC LABEL COMMAND...: "SECONDS PEAK_MB" of COMMAND as simulated node h1 (300 s at most).
timed() {
  local fabric=$1 label=$2
  shift 2
  sim "$fabric" h1 300 /usr/bin/time -f "%e %M" -o "$work/$label.time" "$@" \
    >"$work/$label.out" 2>"$work/$label.err"
  local status=$?
  [ "$status" -le 1 ] || { echo "$label exited $status: $(tail -n 2 "$work/$label.err")" >&2; return 1; }
  awk '{ printf "%s %.0f\n", $1, $2 / 1024 }' "$work/$label.time"
}

# median A B C: the middle one.
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# all_active FABRIC PORTS: iblinkinfo from h1 shows PORTS port lines, every one Active/LinkUp.
all_active() {
  sim "$1" h1 120 iblinkinfo >"$work/$1.links" 2>&1 || return 1
  [ "$(grep -c '==(.*Active/ *LinkUp)' "$work/$1.links")" -eq "$2" ]
}

printf "%6s %9s %6s %12s %12s %8s %12s %8s\n" hosts switches links "ibkit s" "ibnetdisc s" ratio \
  "ibkit MB" verdict
for shape in "$@"; do
  leaves=${shape%x*} down=${shape#*x}
  hosts=$((leaves * down)) fabric="fat$hosts"
  "$py" tests/subnet/fat_tree.py "$leaves" "$down" h1 >"$work/$fabric.net"
  fabric_start "$fabric" "$work/$fabric.net" -N $((hosts + leaves + down)) -P $((4 * hosts + 2 * leaves * down)) || exit 1
  mkdir -p "$work/$fabric/opensm-h1"
  printf '%s\n' opensm -f "$work/$fabric/opensm-h1/opensm.log" >"$work/$fabric/opensm-h1/opensm.argv"
  opensm_start "$fabric" h1
  # Every port once per end: the hosts' ports, and each leaf's down and up ports twice over.
  until_true 240 all_active "$fabric" $((2 * hosts + 2 * leaves * down)) ||
    { echo "fabric bench: $hosts hosts not all Active within 240 s" >&2; exit 1; }
  ref=() mine=() ibkit_mb=0
  for round in 1 2 3; do
    read -r seconds _ < <(timed "$fabric" "ibnetdiscover-$hosts-$round" ibnetdiscover) || exit 1
    ref+=("$seconds")
    read -r seconds mb < <(timed "$fabric" "fabric-$hosts-$round" "$ibkit" fabric --deadline 120 \
      --format json --output "$work/fabric-$hosts.json") || exit 1
    mine+=("$seconds")
    [ "$mb" -gt "$ibkit_mb" ] && ibkit_mb=$mb
  done
  ref_s=$(median "${ref[@]}") ibkit_s=$(median "${mine[@]}")
  verdict=$("$py" -c 'import json, sys
rows = json.load(open(sys.argv[1]))["results"]
bad = [r["id"] for r in rows if r["status"] == "fail"]
print("fail:" + ",".join(sorted(set(bad))) if bad else "pass")' "$work/fabric-$hosts.json")
  printf "%6d %9d %6d %12s %12s %8s %12s %8s\n" "$hosts" $((leaves + down)) $((2 * leaves * down)) \
    "$ibkit_s" "$ref_s" "$(awk -v a="$ibkit_s" -v b="$ref_s" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
    "$ibkit_mb" "$verdict"
  stop_pid "$opensm_pid"
  forget_runner "$opensm_pid"
  fabric_stop "$fabric"
done
