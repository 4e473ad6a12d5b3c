#!/bin/bash
# A quiet fabric and a node sending at half its rate, found by `ibkit sweep` with no
# [thresholds]. Every node's fabric NIC sends through a token bucket at one rate, so healthy ways
# agree within a few percent as a real fabric's do (the lab's own ways spread +-13% and more);
# one node's bucket at half that rate is a link trained down one way, a bad transmit lane. The
# fleet rule learns the spread and draws its line tighter than the fixed 0.33x: the node is
# blamed as the one that sends slowly, and the same fabric with no node at half passes. The
# sweep runs from another node against `ibkit serve`s this script starts, without Ansible: no
# playbook run for one verdict. Sourced (CAPPED_SOURCED=1) it only defines the steps, for
# tier.sh; run alone it tries the lab's last node from its first.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CAPPED_PORT=18700
CAPPED_KEY=/root/ibkit-capped.key
CAPPED_OUT=/tmp/ibkit-capped
# Each node's data leaves through a token bucket at 8 Mbit/s, and the slow node's at 4, against
# the ~50 the lab's ways reach both at once, so the bucket and not the emulation sets the pace;
# its queue is deep enough never to drop (a drop is the lossy case, not this one). At 16 Mbit/s
# the emulation set it now and then: a pair whose two VMs were short of host CPU came out 4-7%
# low, and with 6 ways a spread past 1.75% draws the line below 0.5x (2 of 5 quiet sweeps on an
# idle host, 3 of 4 beside a busy core even at 6 s a way; 8 Mbit/s: 1 of 8). Packets under
# 128 bytes, the transport's acknowledgements, go first: an HCA whose transmit is slow still
# answers between its data packets, where one FIFO would hold every acknowledgement behind half a
# MiB of data and slow the way back as much.
CAPPED_RATE=8mbit
CAPPED_HALF_RATE=4mbit
CAPPED_QDISC="handle 1: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
CAPPED_SMALL="parent 1: protocol ip prio 1 u32 match ip protocol 17 0xff match u16 0 0xff80 at 2 flowid 1:1"
# 4 KiB messages keep what is in flight (128 a QP) to half a MiB, well inside the stall limit of
# 10 s at 4 Mbit/s (64 KiB ones keep 16 MiB: 32 s). 6 s a way, not the default 2: a stall of the
# emulation weighs a third as much (8 Mbit/s, 6 s: the spread was 0.0-0.8% in 8 sweeps on an
# idle host). --ack-timeout 22 takes a timer that is not the default through the drive to both
# ends; the slow pairs' reports must say so.
CAPPED_SWEEP="--test bw --size 4096 --duration 6 --ack-timeout 22 --format json"

# capped_serves COORDINATOR start|stop NODES...: ibkit serve on each node with a key made on
# the coordinator for this step (start), or stopped (stop).
capped_serves() {
  local coordinator=$1 action=$2 node
  shift 2
  if [ "$action" = stop ]; then
    for node in "$@"; do "$LABCTL" ssh "$node" "kill \$(cat $CAPPED_OUT.pid) 2>/dev/null"; done
    return 0
  fi
  lab_share_key "$coordinator" "$CAPPED_KEY" "$@" || return 1
  for node in "$@"; do
    "$LABCTL" ssh "$node" "nohup $GUEST_IBKIT serve --port $CAPPED_PORT --key-file $CAPPED_KEY \
      --session-timeout 120 >$CAPPED_OUT.serve.log 2>&1 </dev/null & echo \$! >$CAPPED_OUT.pid; \
      sleep 1; ss -Hltn 'sport = :$CAPPED_PORT' | grep -q LISTEN" ||
      { echo "$node: ibkit serve did not listen"; return 1; }
  done
}

# capped_bucket NODE NETDEV RATE|none: NODE's NETDEV sends its data through a token bucket at
# RATE, small packets first; none takes the bucket away.
capped_bucket() {
  local node=$1 netdev=$2 rate=$3
  if [ "$rate" = none ]; then
    "$LABCTL" ssh "$node" "tc qdisc del dev $netdev root 2>/dev/null; true"
    return
  fi
  "$LABCTL" ssh "$node" "tc qdisc replace dev $netdev root $CAPPED_QDISC && \
    tc qdisc add dev $netdev parent 1:2 handle 20: tbf rate $rate burst 32kb limit 16mb && \
    tc filter add dev $netdev $CAPPED_SMALL"
}

# quiet_fabric_sweep SLOW_NODE|none NAME: one sweep of every lab node from another, every node's
# egress in a bucket at CAPPED_RATE and SLOW_NODE's at CAPPED_HALF_RATE; its exit status, the
# report in $LAB_LOGS/NAME-report.
quiet_fabric_sweep() {
  local slow=$1 tag=$2 rows row name address netdev coordinator="" hosts="" status=0 i rate
  local names=() netdevs=()
  mapfile -t rows < <(lab_nodes)
  for row in "${rows[@]}"; do
    read -r name address netdev <<<"$row"
    names+=("$name")
    netdevs+=("$netdev")
    hosts+="$name $address\n"
    [ -z "$coordinator" ] && [ "$name" != "$slow" ] && coordinator=$name
  done
  capped_serves "$coordinator" start "${names[@]}" || status=2
  for i in "${!names[@]}"; do
    [ "$status" -eq 0 ] || break
    rate=$CAPPED_RATE
    [ "${names[$i]}" = "$slow" ] && rate=$CAPPED_HALF_RATE
    capped_bucket "${names[$i]}" "${netdevs[$i]}" "$rate" || status=2
  done
  if [ "$status" -eq 0 ]; then
    "$LABCTL" ssh "$coordinator" "printf '$hosts' >$CAPPED_OUT.hosts; rm -rf $CAPPED_OUT; \
      timeout 300 $GUEST_IBKIT sweep --hosts $CAPPED_OUT.hosts --port $CAPPED_PORT \
      --key-file $CAPPED_KEY $CAPPED_SWEEP --output $CAPPED_OUT" >"$LAB_LOGS/$tag-sweep.log" 2>&1
    status=$?
    grep -E '^ibkit sweep:|^blamed|^The fleet rule' "$LAB_LOGS/$tag-sweep.log"
    mkdir -p "$LAB_LOGS/$tag-report"
    "$LABCTL" ssh "$coordinator" "cat $CAPPED_OUT/report.json" >"$LAB_LOGS/$tag-report/report.json" ||
      status=2
  fi
  for i in "${!names[@]}"; do capped_bucket "${names[$i]}" "${netdevs[$i]}" none; done
  capped_serves "$coordinator" stop "${names[@]}"
  return "$status"
}

# bandwidth_line REPORT_DIR: the bandwidth line the fleet rule drew, how and from what spread;
# fails unless it was learned from the spread (not the fixed factors) and is tighter than 0.5x.
bandwidth_line() {
  /usr/bin/python3 - "$1/report.json" <<'PY'
import json, sys
fleet = json.load(open(sys.argv[1])).get("fleet") or {}
lines = [r for r in fleet.get("references", []) if r.get("figure") == "bandwidth_gbps"]
if not lines:
    sys.exit(f"no bandwidth reference in the fleet rule: {fleet}")
for r in lines:
    print(f"{r.get('subject')}: line {r.get('line', 0):.2f}x ({r.get('line_basis')}), healthy ways spread "
          f"{100 * r.get('spread', 0):.1f}% over {r.get('spread_ways')} ways")
    if r.get("line_basis") != "spread" or not r.get("line", 0) > 0.5:
        sys.exit("the line was not learned from the fleet's spread, or is not tighter than 0.5x")
PY
}

# sweep_blames_half_sender NODE: on the quiet fabric NODE sends at half: the report must judge
# NODE's pairs slow by the fleet rule, pass the others, and blame NODE alone as the one that
# sends slowly, by a line learned from the fabric's spread.
sweep_blames_half_sender() {
  local status
  quiet_fabric_sweep "$1" capped
  status=$?
  [ "$status" -eq 1 ] || { echo "ibkit sweep exited $status, not 1 (a failed verdict)"; return 1; }
  validate_judged "$LAB_LOGS/capped-report" capped "$1" && bandwidth_line "$LAB_LOGS/capped-report"
}

# quiet_fabric_passes: the same fabric, no node at half: PASS, by the same kind of line.
quiet_fabric_passes() {
  local status
  quiet_fabric_sweep none quiet
  status=$?
  [ "$status" -eq 0 ] || { echo "ibkit sweep exited $status, not 0 (a pass)"; return 1; }
  bandwidth_line "$LAB_LOGS/quiet-report"
}

# capped_steps NODE: the two steps, NODE the one at half; the same in the tier and run alone.
capped_steps() {
  lab_step "sweep: a quiet fabric (every node's egress in an 8 Mbit/s bucket) passes" \
    quiet_fabric_passes
  lab_step "sweep: on that fabric $1 sending at half is blamed as the slow sender" \
    sweep_blames_half_sender "$1"
}

[ "${CAPPED_SOURCED:-0}" = 1 ] && return 0

VALIDATE_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/validate.sh"
lab_alone lab-capped
mapfile -t last < <(lab_nodes | tail -n 1)
read -r name _ _ <<<"${last[0]}"
capped_steps "$name"
lab_alone_end
