#!/bin/bash
# A node whose fabric NIC sends at about a fifth of the lab's rate (a token bucket on its
# egress: a link trained down one way, a bad transmit lane), found by `ibkit sweep` with no
# [thresholds]: the fleet rule judges each way of every bidirectional pair, and the node is
# blamed as the one that sends slowly. The sweep runs from another node against `ibkit serve`s
# this script starts, without Ansible: no playbook run for one verdict. Sourced
# (CAPPED_SOURCED=1) it only defines the step, for tier.sh; run alone it tries the lab's last
# node from its first.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CAPPED_PORT=18700
CAPPED_KEY=/root/ibkit-capped.key
CAPPED_OUT=/tmp/ibkit-capped
# The node's data leaves through a token bucket at 8 Mbit/s, against the ~50 the lab's ways
# reach both at once; the bucket's queue is deep enough never to drop (a drop is the lossy case,
# not this one). Packets under 128 bytes, the transport's acknowledgements, go first: an HCA
# whose transmit is slow still answers between its data packets, where one FIFO would hold
# every acknowledgement behind half a MiB of data and slow the way back as much.
CAPPED_QDISC="handle 1: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
CAPPED_BUCKET="parent 1:2 handle 20: tbf rate 8mbit burst 32kb limit 16mb"
CAPPED_SMALL="parent 1: protocol ip prio 1 u32 match ip protocol 17 0xff match u16 0 0xff80 at 2 flowid 1:1"
# 4 KiB messages keep what is in flight (128 a QP) to half a MiB, well inside the stall limit of
# 10 s at this rate (64 KiB ones keep 16 MiB: 16 s). --ack-timeout 22 takes a timer that is not
# the default through the drive to both ends; the slow pairs' reports must say so.
CAPPED_SWEEP="--test bw --size 4096 --ack-timeout 22 --format json"

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

# sweep_blames_capped_sender NODE NETDEV: NODE's NETDEV sends its data through the token bucket
# for one sweep of every lab node from another; the report must judge NODE's pairs slow by the
# fleet rule, pass the others, and blame NODE alone as the one that sends slowly.
sweep_blames_capped_sender() {
  local node=$1 netdev=$2 rows row name address coordinator="" hosts="" names=() status
  local report="$LAB_LOGS/capped-report"
  mapfile -t rows < <(lab_nodes)
  for row in "${rows[@]}"; do
    read -r name address _ <<<"$row"
    names+=("$name")
    hosts+="$name $address\n"
    [ -z "$coordinator" ] && [ "$name" != "$node" ] && coordinator=$name
  done
  capped_serves "$coordinator" start "${names[@]}" || { capped_serves "$coordinator" stop "${names[@]}"; return 1; }
  "$LABCTL" ssh "$node" "tc qdisc replace dev $netdev root $CAPPED_QDISC && \
    tc qdisc add dev $netdev $CAPPED_BUCKET && tc filter add dev $netdev $CAPPED_SMALL" || return 1
  "$LABCTL" ssh "$coordinator" "printf '$hosts' >$CAPPED_OUT.hosts; rm -rf $CAPPED_OUT; \
    timeout 300 $GUEST_IBKIT sweep --hosts $CAPPED_OUT.hosts --port $CAPPED_PORT \
    --key-file $CAPPED_KEY $CAPPED_SWEEP --output $CAPPED_OUT" >"$LAB_LOGS/capped-sweep.log" 2>&1
  status=$?
  "$LABCTL" ssh "$node" "tc qdisc del dev $netdev root"
  capped_serves "$coordinator" stop "${names[@]}"
  grep -E '^ibkit sweep:|^blamed' "$LAB_LOGS/capped-sweep.log"
  [ "$status" -eq 1 ] || { echo "ibkit sweep exited $status, not 1 (a failed verdict)"; return 1; }
  mkdir -p "$report" && "$LABCTL" ssh "$coordinator" "cat $CAPPED_OUT/report.json" >"$report/report.json" ||
    return 1
  validate_judged "$report" capped "$node"
}

[ "${CAPPED_SOURCED:-0}" = 1 ] && return 0

VALIDATE_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/validate.sh"
lab_alone lab-capped
mapfile -t last < <(lab_nodes | tail -n 1)
read -r name _ netdev <<<"${last[0]}"
lab_step "sweep: $name's egress capped by a token bucket is blamed as the slow sender" \
  sweep_blames_capped_sender "$name" "$netdev"
lab_alone_end
