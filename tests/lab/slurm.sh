#!/bin/bash
# Slurm on the lab, as a site runs it: munge and slurmd on every node, slurmctld on the first,
# the ibkit_slurm_health role wiring `ibkit health` in as HealthCheckProgram, and slurmd itself
# running it. A node whose fabric device is gone (rdma_rxe unloaded) is drained with ibkit's
# reason in `sinfo -R`, and resumed once the device is back; a node an admin drained stays
# drained. Before that, batch jobs run `ibkit sweep --launch slurm` (launch.sh). Sourced (SLURM_SOURCED=1) it only defines slurm_steps, for tier.sh; run alone it
# runs them against the lab that is up.
# Slurm's traffic and the fabric share the lab's one segment, so the fault is the device, not
# the cable: with the link pulled the node could not reach slurmctld to be drained.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# ibkit sweep --launch slurm: batch jobs that sweep their allocation.
LAUNCH_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/launch.sh"

SLURM_INTERVAL=10  # HealthCheckInterval (s): slurmd runs ibkit health this often

# slurm_conf CONTROLLER ADDRESS ROWS...: a slurm.conf for the lab (ROWS: "NAME ADDRESS NETDEV").
slurm_conf() {
  local controller=$1 address=$2 row name node_address
  shift 2
  cat <<CONF
ClusterName=ibkitlab
SlurmctldHost=$controller($address)
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
CONF
  for row in "$@"; do
    read -r name node_address _ <<<"$row"
    echo "NodeName=$name NodeAddr=$node_address CPUs=1 State=UNKNOWN"
  done
  echo "PartitionName=fabric Nodes=ALL Default=YES State=UP"
}

# slurm_wait NODE SECONDS CMD: run CMD on NODE every 2 s until it succeeds, at most SECONDS;
# prints its last output.
slurm_wait() {
  local node=$1 deadline=$(($(date +%s) + $2)) out
  until out=$("$LABCTL" ssh "$node" "$3" 2>&1); do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "not within $2 s: $3"
      echo "$out"
      return 1
    fi
    sleep 2
  done
  echo "$out"
}

# slurm_start: the same slurm.conf and munge key everywhere, the daemons started, every node
# idle.
slurm_start() {
  local conf="$LAB_LOGS/slurm.conf" key="$LAB_LOGS/munge.key" row name
  slurm_conf "$SLURM_CONTROLLER" "$SLURM_CONTROLLER_ADDRESS" "${SLURM_ROWS[@]}" >"$conf"
  "$LABCTL" ssh "$SLURM_CONTROLLER" "[ -s /etc/munge/munge.key ] || mungekey --create; cat /etc/munge/munge.key" >"$key" ||
    return 1
  for row in "${SLURM_ROWS[@]}"; do
    read -r name _ <<<"$row"
    "$LABCTL" push "$name" "$conf" /etc/slurm/slurm.conf &&
      "$LABCTL" push "$name" "$key" /etc/munge/munge.key &&
      "$LABCTL" ssh "$name" "chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key &&
        mkdir -p /var/lib/slurm/slurmctld /var/lib/slurm/slurmd && systemctl restart munge" || return 1
  done
  "$LABCTL" ssh "$SLURM_CONTROLLER" systemctl restart slurmctld || return 1
  for row in "${SLURM_ROWS[@]}"; do
    read -r name _ <<<"$row"
    "$LABCTL" ssh "$name" systemctl restart slurmd || return 1
  done
  slurm_wait "$SLURM_CONTROLLER" 120 \
    "sinfo -h -N -o '%N %t' >/tmp/sinfo.txt; cat /tmp/sinfo.txt; [ -s /tmp/sinfo.txt ] && ! grep -qv ' idle\$' /tmp/sinfo.txt"
}

# slurm_role: the ibkit_slurm_health role on every node (an inventory of its own puts them in
# slurm_nodes), with a short interval so the test need not wait five minutes.
slurm_role() {
  local inventory="$LAB_LOGS/slurm-nodes.yml" log="$LAB_LOGS/play-slurm-health.log" row name status
  {
    echo "all:"
    echo "  children:"
    echo "    slurm_nodes:"
    echo "      hosts:"
    for row in "${SLURM_ROWS[@]}"; do
      read -r name _ <<<"$row"
      echo "        $name: {}"
    done
  } >"$inventory"
  lab_playbook mitogen -i inventory/lab -i "$inventory" playbooks/slurm_health.yml \
    -e "ibkit_slurm_health_interval=$SLURM_INTERVAL" -e "ibkit_slurm_health_controller=$SLURM_CONTROLLER" \
    >"$log" 2>&1
  status=$?
  sed -n '/^PLAY RECAP/,$p' "$log"
  [ "$status" -eq 0 ] || { tail -n 30 "$log"; return 1; }
  "$LABCTL" ssh "$SLURM_CONTROLLER" "scontrol show config | grep -E '^HealthCheck(Program|Interval)'"
}

# slurm_device_holders NODE: the processes with a verbs device open on NODE (what keeps
# rdma_rxe in use), with their command lines.
slurm_device_holders() {
  # shellcheck disable=SC2016  # expanded on the node
  "$LABCTL" ssh "$1" 'find /proc/[0-9]*/fd -lname "/dev/infiniband/*" 2>/dev/null |
    cut -d/ -f3 | sort -u | while read -r pid; do
      echo "pid $pid holds a verbs device: $(tr "\0" " " <"/proc/$pid/cmdline" 2>/dev/null)"
    done'
}

# slurm_drains NODE NETDEV: rdma_rxe unloaded on NODE; slurmd's own health check must drain it
# with ibkit's reason; the device back, the next check must resume it.
slurm_drains() {
  local node=$1 netdev=$2 status
  # slurmd's own run of ibkit health holds the device for its loopback test (about 8 s of
  # every 10 in the emulated lab): retried on the node itself, so the gap between runs is seen.
  # shellcheck disable=SC2016  # expanded on the node
  if ! "$LABCTL" ssh "$node" 'end=$(($(date +%s) + 60))
      until modprobe -r rdma_rxe 2>/dev/null; do
        [ "$(date +%s)" -lt "$end" ] || { modprobe -r rdma_rxe; exit 1; }
        sleep 0.2
      done'; then
    slurm_device_holders "$node"
    return 1
  fi
  echo "$node: rdma_rxe unloaded"
  slurm_wait "$SLURM_CONTROLLER" 90 "sinfo -R -h -N -o '%N|%t|%E' | grep '^$node|' | grep '|ibkit: '"
  status=$?
  lab_setup_rxe "$node" "$netdev" >/dev/null || return 1
  [ "$status" -eq 0 ] || return 1
  slurm_wait "$SLURM_CONTROLLER" 90 "sinfo -h -N -n $node -o '%N %t' | grep -E ' (idle|mix|alloc)\$'" &&
    echo "$node resumed by ibkit once rdma_rxe was back"
}

# slurm_admin_drain NODE: an admin's drain of a healthy node outlasts three health checks.
slurm_admin_drain() {
  local node=$1 status
  "$LABCTL" ssh "$SLURM_CONTROLLER" "scontrol update NodeName=$node State=DRAIN Reason=maintenance" || return 1
  sleep $((SLURM_INTERVAL * 3))
  "$LABCTL" ssh "$SLURM_CONTROLLER" "sinfo -R -h -N -o '%N|%t|%E' | grep '^$node|' | tee /dev/stderr | grep -q '|maintenance\$'"
  status=$?
  "$LABCTL" ssh "$SLURM_CONTROLLER" "scontrol update NodeName=$node State=RESUME" >/dev/null
  [ "$status" -eq 0 ] && echo "$node still drained for maintenance after $((SLURM_INTERVAL * 3)) s of passing checks"
}

slurm_stop() {
  local row name
  for row in "${SLURM_ROWS[@]}"; do
    read -r name _ <<<"$row"
    "$LABCTL" ssh "$name" "systemctl stop slurmd slurmctld 2>/dev/null; true"
  done
}

# slurm_steps: the whole sequence against the lab that is up (at least two nodes).
slurm_steps() {
  mapfile -t SLURM_ROWS < <(lab_nodes)
  read -r SLURM_CONTROLLER SLURM_CONTROLLER_ADDRESS _ <<<"${SLURM_ROWS[0]}"
  local name netdev
  lab_step "slurm: slurmctld on $SLURM_CONTROLLER, slurmd everywhere, all idle" slurm_start || return 1
  # Before ibkit health runs every few seconds on each node, which would slow the sweeps.
  launch_slurm_steps
  lab_step "slurm: ibkit_slurm_health makes ibkit health the HealthCheckProgram" slurm_role || return 1
  read -r name _ netdev <<<"${SLURM_ROWS[1]}"
  lab_step "slurm: $name without its RDMA device is drained by ibkit, resumed once it is back" \
    slurm_drains "$name" "$netdev"
  read -r name _ <<<"${SLURM_ROWS[-1]}"
  lab_step "slurm: $name drained by an admin stays drained" slurm_admin_drain "$name"
  lab_step "slurm: daemons stopped" slurm_stop
}

if [ -z "${SLURM_SOURCED:-}" ]; then
  lab_run_begin "slurm" slurm
  slurm_steps
fi
