#!/bin/bash
# The lab test tier (make test, so CI): three VMs with Soft-RoCE on a private segment; site.yml
# converges, then changes nothing, and a rebooted node comes back as it was; verbs (perftest,
# rping, ibkit pair, with polled and event-driven completions) between them; bandwidth by
# default runs by duration, and two ends at different MTUs pass with a warning naming both;
# ibkit pair --loopback on one node alone, and the loopback check failing with memlock lowered or
# the RDMA module unloaded; ibkit inside each VM must see the rxe port ACTIVE over Ethernet, and
# must fail when the fabric link is pulled; validate.yml passes, and fails naming the node whose
# link is down; with no [thresholds], a node slowed by netem is slow in every pair and blamed by
# the fleet rule, a node whose data leaves through a token bucket is blamed as the one that
# sends slowly (each way of every pair judged), a node losing 3% of what it sends is blamed
# through the transport counters its pairs read, and a node at a smaller MTU fails only its
# port.mtu check while its pairs pass, each warning with both MTUs; Slurm's slurmd runs ibkit
# health, which drains a node whose device is gone and resumes it, and leaves an admin's drain
# alone; the .deb installs and runs on a node, and README.md's quick start runs as written.
# Prints every step's time and ends with "N passed, N failed"; the lab it started always goes
# down at the end (it refuses to run beside a lab someone else left up). Exit status 0 only when
# every step passed.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
# The provisioning's convergence steps (site.yml twice, check mode, ibkit check after).
CONVERGE_SOURCED=1 source "$(dirname "$0")/converge.sh"
# validate.yml: the merged report passes, and names the node whose link is pulled.
VALIDATE_SOURCED=1 source "$(dirname "$0")/validate.sh"
# Slurm with ibkit health as HealthCheckProgram: drains a node without its device, resumes it.
SLURM_SOURCED=1 source "$(dirname "$0")/slurm.sh"
# A sweep without Ansible: a node whose data leaves through a token bucket is blamed as the
# slow sender.
CAPPED_SOURCED=1 source "$(dirname "$0")/capped-sender.sh"
# ibkit sweep --launch ssh from a node: nothing started beforehand, the unreachable named.
LAUNCH_SOURCED=1 source "$(dirname "$0")/launch.sh"
# make package's .deb installed on a node: the agent, its man pages and completion work there.
PACKAGE_SOURCED=1 source "$(dirname "$0")/package.sh"
# README.md's quick start, read out of README.md and run as written on two nodes.
QUICKSTART_SOURCED=1 source "$(dirname "$0")/quickstart.sh"

# perftest's own TCP exchange; it picks the RoCE v2 GID of the fabric's IPv4 address itself.
PERFTEST_OPTS="-d rxe0"

# perftest TOOL ARGS: TOOL from node 2 (client) to node 1 (server); prints a summary line.
perftest() {
  local tool=$1 args=$2 out status
  out=$(lab_pair "$SERVER" "$CLIENT" "$LAB_PERFTEST_READY" "$tool $PERFTEST_OPTS $args" \
    "$tool $PERFTEST_OPTS $args $SERVER_ADDRESS")
  status=$?
  echo "$out"
  [ "$status" -eq 0 ] || return "$status"
  # The first result row is the client's: bytes iterations ... (columns differ per tool).
  echo "$out" | awk -v tool="$tool" '
    /^ *[0-9]+ +[0-9]+ +[0-9.]+/ && !done {
      if (tool ~ /lat/) printf "%s: %s B typical %s us, 99%% %s us\n", tool, $1, $5, $8
      else printf "%s: %s B average %s MB/s\n", tool, $1, $4
      done = 1 }
    END { if (!done) { print "no result row in the output"; exit 1 } }'
}

rping_pair() {
  lab_pair "$SERVER" "$CLIENT" "$LAB_RDMA_CM_READY" "rping -s -a $SERVER_ADDRESS -C 20" \
    "rping -c -a $SERVER_ADDRESS -C 20 -v" &&
    echo "rping: 20 round trips over rdma_cm"
}

port_active() {
  "$LABCTL" ssh "$1" ibv_devinfo -d rxe0 >"$LAB_LOGS/devinfo-$1.txt" &&
    grep -q 'state:.*PORT_ACTIVE' "$LAB_LOGS/devinfo-$1.txt" &&
    grep -q 'link_layer:.*Ethernet' "$LAB_LOGS/devinfo-$1.txt" &&
    echo "$1: rxe0 port 1 PORT_ACTIVE, link layer Ethernet"
}

# agent_asserts NODE MODE: ibkit's JSON on NODE holds what assert-agent.py MODE wants
# (devices/check: rxe ACTIVE over Ethernet; check-down: rxe port.state failed).
agent_asserts() {
  local node=$1 mode=$2 json="$LAB_LOGS/$1-$2.json" status
  if [ "$mode" = devices ]; then
    lab_ibkit "$node" devices --format json >"$json"
    status=$?
    [ "$status" -eq 0 ] || { echo "ibkit devices exited $status"; return 1; }
  else
    lab_ibkit "$node" check --config "$GUEST_CONFIG" --format json >"$json"
    status=$?
    lab_check_ran "$status" || { echo "ibkit check exited $status"; return 1; }
  fi
  "$LAB_DIR/assert-agent.py" "$mode" "$json"
}

# link_fault NODE NETDEV: pull NODE's fabric cable from the host; ibkit check must fail the
# rxe port; plug it back and the port must be ACTIVE again.
link_fault() {
  "$LABCTL" fault "$1" link-down &&
    "$LABCTL" ssh "$1" "timeout 30 sh -c 'until grep -q DOWN /sys/class/infiniband/rxe0/ports/1/state; do sleep 1; done'" &&
    agent_asserts "$1" check-down
  local status=$?
  "$LABCTL" fault "$1" link-up && lab_setup_rxe "$1" "$2" && [ "$status" -eq 0 ] &&
    echo "link down: ibkit check failed rxe0/1 as it should; link up: ACTIVE again"
}

PAIR_PORT=18600
PAIR_KEY=/etc/ibkit/pair.key

# pair_server_start NODE: a long-running, keyed ibkit serve on NODE (every pair test below is
# a session of this one server, so it must stay up between them).
pair_server_start() {
  lab_share_key "$1" "$PAIR_KEY" "$2" &&
    "$LABCTL" ssh "$1" "nohup ibkit serve --port $PAIR_PORT --key-file $PAIR_KEY --session-timeout 120 \
      >/tmp/ibkit-serve.log 2>&1 </dev/null & sleep 1; ss -Hltn 'sport = :$PAIR_PORT' | grep -q LISTEN" &&
    echo "ibkit serve on $1:$PAIR_PORT with a per-run key"
}

# pair_test NAME MODE ARG PAIR_ARGS...: ibkit pair from the client to the server; the JSON
# report must pass assert-pair.py MODE ARG.
pair_test() {
  local name=$1 mode=$2 argument=$3 json="$LAB_LOGS/pair-$1.json"
  shift 3
  "$LABCTL" ssh "$CLIENT" "timeout 150 ibkit pair $SERVER_ADDRESS --port $PAIR_PORT --key-file $PAIR_KEY \
    --format json $*" >"$json"
  echo "ibkit pair exited $?"
  "$LAB_DIR/assert-pair.py" "$json" "$mode" "$argument"
}

# pair_link_fault: pull the server's fabric cable 5 s into a 30 s bandwidth test; the test
# must fail with a clear reason within its stall timeout, not hang; the link comes back.
pair_link_fault() {
  (sleep 5 && "$LABCTL" fault "$SERVER" link-down >/dev/null) &
  local puller=$! start status
  start=$(date +%s)
  pair_test link-fault fail "is gone" --test bw --duration 30
  status=$?
  wait "$puller"
  echo "ended $(($(date +%s) - start)) s after it started"
  "$LABCTL" fault "$SERVER" link-up >/dev/null && lab_setup_rxe "$SERVER" "$SERVER_NETDEV" >/dev/null
  [ "$status" -eq 0 ] && [ $(($(date +%s) - start)) -lt 60 ]
}

# pair_mtu_differs NETDEV: the server's fabric at a smaller MTU (600: RDMA MTU 512) than the
# client's (1500: 1024). The queue pairs agree on 512, every test passes, and the report warns
# naming both MTUs and both ends; then the server's MTU is put back.
pair_mtu_differs() {
  local netdev=$1 status
  set_fabric_mtu "$SERVER" "$netdev" 600 512 || return 1
  lab_ibkit "$SERVER" devices | grep -q "Ethernet  MTU 512" &&
    echo "ibkit devices on $SERVER shows MTU 512"
  status=$?
  [ "$status" -eq 0 ] &&
    pair_test mtu-differs ends "active MTU $CLIENT 1024, $SERVER_ADDRESS 512 (the path runs at 512)" \
      --test all
  status=$?
  set_fabric_mtu "$SERVER" "$netdev" 1500 1024 || status=1
  return "$status"
}

pair_server_log() { "$LABCTL" ssh "$SERVER" "pkill -x ibkit; cat /tmp/ibkit-serve.log"; }

# loopback_test NAME MODE ARG PAIR_ARGS...: ibkit pair --loopback on the server node alone (no
# peer, no serve); the JSON report must pass assert-pair.py MODE ARG.
loopback_test() {
  local name=$1 mode=$2 argument=$3 json="$LAB_LOGS/loopback-$1.json"
  shift 3
  "$LABCTL" ssh "$SERVER" "timeout 150 ibkit pair --loopback --format json $*" >"$json"
  echo "ibkit pair --loopback exited $?"
  "$LAB_DIR/assert-pair.py" "$json" "$mode" "$argument"
}

# loopback_in_check NODE: the check of NODE that step "ibkit check sees rxe" ran (site.yml
# installed its expected state, with [expect] loopback from the lab inventory) proved the data
# path: loopback.latency and loopback.bandwidth pass on rxe0.
loopback_in_check() { "$LAB_DIR/assert-agent.py" loopback "$LAB_LOGS/$1-check.json"; }

# loopback_memlock NODE: with memlock at 64 KiB the loopback check fails, naming memlock. Root
# is exempt from RLIMIT_MEMLOCK through CAP_IPC_LOCK, so the check runs without it (dropped
# from the bounding set), as a service or a user would.
loopback_memlock() {
  local json="$LAB_LOGS/$1-check-memlock.json" status
  "$LABCTL" ssh "$1" "setpriv --bounding-set=-ipc_lock prlimit --memlock=65536:65536 \
    $GUEST_IBKIT check --config $GUEST_CONFIG --format json" >"$json"
  status=$?
  echo "ibkit check under memlock 64 KiB exited $status"
  [ "$status" -eq 1 ] && "$LAB_DIR/assert-agent.py" loopback-memlock "$json"
}

# loopback_unloaded NODE NETDEV: with rdma_rxe unloaded the loopback check fails naming the
# missing device (exit 3, environment); rxe0 is set up again afterwards.
loopback_unloaded() {
  local json="$LAB_LOGS/$1-check-unloaded.json" status
  "$LABCTL" fault "$1" unload-module rdma_rxe || return 1
  lab_ibkit "$1" check --config "$GUEST_CONFIG" --format json >"$json"
  status=$?
  echo "ibkit check without rdma_rxe exited $status"
  [ "$status" -eq 3 ] && "$LAB_DIR/assert-agent.py" loopback-nodevice "$json"
  status=$?
  lab_setup_rxe "$1" "$2" && [ "$status" -eq 0 ]
}

main() {
  if "$LABCTL" status >/dev/null 2>&1; then
    echo "a lab is already up (make lab?); the tier needs its own: tests/lab/labctl down first"
    LAB_FAILED=$((LAB_FAILED + 1))
    return 1
  fi
  # Three nodes: the sweep's fleet rule judges from 3 up.
  lab_run_up 3 || return 1
  converge_steps
  local rows name netdev
  mapfile -t rows < <(lab_nodes)
  read -r SERVER SERVER_ADDRESS SERVER_NETDEV <<<"${rows[0]}"
  read -r CLIENT _ <<<"${rows[1]}"
  for row in "${rows[@]}"; do
    read -r name _ netdev <<<"$row"
    lab_step "$name: Soft-RoCE rxe0 on $netdev" lab_setup_rxe "$name" "$netdev"
  done
  for row in "${rows[@]}"; do
    read -r name _ <<<"$row"
    lab_step "$name: ibv_devinfo PORT_ACTIVE" port_active "$name"
  done
  lab_step "ib_send_lat $CLIENT -> $SERVER" perftest ib_send_lat "-n 1000"
  lab_step "ib_write_bw $CLIENT -> $SERVER" perftest ib_write_bw "-s 65536 -n 500"
  lab_step "rping $CLIENT -> $SERVER" rping_pair
  # The agent and its expected state are the ones site.yml installed.
  for row in "${rows[@]}"; do
    read -r name _ <<<"$row"
    lab_step "$name: ibkit devices sees rxe" agent_asserts "$name" devices
    lab_step "$name: ibkit check sees rxe" agent_asserts "$name" check
  done
  lab_step "ibkit serve on $SERVER (keyed, long-running)" pair_server_start "$SERVER" "$CLIENT"
  lab_step "ibkit pair lat send 2 B" pair_test lat pass 1 --test lat --iters 300
  lab_step "ibkit pair lat write 2 B" pair_test lat-write pass 1 --test lat --op write --iters 300
  lab_step "ibkit pair bw write 64 KiB" pair_test bw-write pass 1 --test bw --iters 200
  # 4 KiB, not the default 64 KiB: SENDs of 64 packets both ways at once fail about half the runs
  # on the emulated lab, perftest's own ib_send_bw -b -q 2 -s 65536 too (remote invalid request,
  # after Soft-RoCE's retransmissions); 4 KiB passed 20 of 20.
  lab_step "ibkit pair bw send, 2 QPs, bidirectional" pair_test bw-send pass 1 --test bw --op send --qps 2 --bidir --iters 100 --size 4096
  lab_step "ibkit pair --cm: lat and bw, 2 QPs, over rdma_cm" pair_test cm cm 1 --test all --cm --qps 2 --iters 200
  lab_step "ibkit pair bw write sweep 2 B - 8 MiB" pair_test sweep pass 23 --test bw --sweep --iters 5
  lab_step "ibkit pair tcp, 2 streams" pair_test tcp pass 1 --test tcp --qps 2 --duration 2
  lab_step "ibkit pair bw with defaults runs 2 s a size, not a count" pair_test bw-default duration 2 --test bw
  lab_step "ibkit pair: ends at MTU 1024 and 512 pass, with a warning naming both" \
    pair_mtu_differs "$SERVER_NETDEV"
  lab_step "ibkit pair --completions both: lat send, polled then events" \
    pair_test events-lat both 1 --test lat --completions both --iters 300
  # One way: the client's send queue and the server's receive queue both wait by events.
  lab_step "ibkit pair --events: bw send, 2 QPs" \
    pair_test events-bw events 1 --test bw --op send --qps 2 --events --iters 100
  lab_step "ibkit pair: link pulled mid-test fails in time" pair_link_fault
  lab_step "ibkit serve log" pair_server_log
  lab_step "$SERVER: ibkit pair --loopback: lat and bw, no peer" loopback_test all loopback 1 --test all --iters 300
  lab_step "$SERVER: ibkit pair --loopback --events: lat send, bw send 2 QPs bidirectional" \
    loopback_test events events 1 --test all --op send --qps 2 --bidir --events --iters 200
  lab_step "$SERVER: ibkit check proved the data path (loopback)" loopback_in_check "$SERVER"
  lab_step "$SERVER: memlock 64 KiB fails the loopback check, naming memlock" loopback_memlock "$SERVER"
  lab_step "$SERVER: rdma_rxe unloaded fails the loopback check, naming the device" \
    loopback_unloaded "$SERVER" "$SERVER_NETDEV"
  lab_step "validate.yml passes, JUnit and HTML written" validate_passes
  read -r name _ netdev <<<"${rows[1]}"
  lab_step "validate.yml fails with $name's link down, naming it" validate_names_fault "$name" "$netdev"
  read -r name _ netdev <<<"${rows[2]}"
  lab_step "validate.yml: $name slowed by netem is blamed by the fleet rule, no thresholds" \
    validate_blames_slow_node "$name" "$netdev"
  lab_step "validate.yml: every node slowed alike passes the fleet rule, fails against the last good run" \
    validate_fails_against_baseline
  capped_steps "$name"
  lab_step "sweep --launch ssh: every node's pairs pass, the unreachable named in time" launch_ssh_sweep
  lab_step "validate.yml: $name at MTU 512 fails port.mtu only; its pairs pass, warning both MTUs" \
    validate_mtu_differs "$name" "$netdev"
  # Last of the sweeps: a stalled go-back-N on Soft-RoCE may keep its nodes busy for a while.
  lab_step "validate.yml: $name losing 3% of what it sends is blamed, its transport counters named" \
    validate_blames_lossy_node "$name" "$netdev"
  read -r name _ netdev <<<"${rows[0]}"
  lab_step "$name: fabric link down fails ibkit check, link up heals" link_fault "$name" "$netdev"
  slurm_steps
  read -r name _ <<<"${rows[-1]}"
  lab_step "$name: make package's .deb over an older build: ibkit, its check, man pages, completion, the timer kept" \
    package_installs "$name"
  lab_step "README.md's quick start as written on $QUICKSTART_NODES nodes: the package, devices, check, a keyed pair, sweeps over ssh and Slurm" \
    quickstart_runs
}

lab_run_begin "lab tier" lab-tier
main
