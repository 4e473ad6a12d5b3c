# shellcheck shell=bash
# Shared by tier.sh and make-lab.sh (source it): timed steps, Soft-RoCE setup, the agent on
# the nodes, pair tests. Everything goes through labctl; nothing here starts a VM itself.

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
LABCTL="$LAB_DIR/labctl"
IBKIT_BIN=${IBKIT_BIN:-$REPO_DIR/build/agent/ibkit}
GUEST_IBKIT=/usr/local/bin/ibkit
GUEST_CONFIG=/etc/ibkit/ibkit.toml
LAB_PASSED=0
LAB_FAILED=0
LAB_FAILURES=()  # "NAME|LOG" of each failed step, recalled at the end
LAB_STEP=0

# lab_init_logs NAME: a fresh log folder for this run's step logs (kept for inspection).
lab_init_logs() {
  LAB_LOGS=$(mktemp -d "${TMPDIR:-/tmp}/ibkit-$1.XXXXXX")
}

# lab_run_begin LABEL LOGS: a run of steps of its own (tier.sh, converge.sh alone): its logs
# in a fresh folder (lab_init_logs LOGS), and lab_run_finish when the script exits.
lab_run_begin() {
  LAB_RUN_LABEL=$1
  LAB_RUN_START=$(date +%s)
  LAB_RUN_UP=
  lab_init_logs "$2"
  trap 'exit 130' INT TERM
  trap lab_run_finish EXIT
  echo "$1: logs in $LAB_LOGS"
}

# lab_run_up NODES: a step that brings up a lab of NODES nodes, which lab_run_finish takes
# down again.
lab_run_up() {
  lab_step "lab up ($1 nodes)" "$LABCTL" up --nodes "$1" || return 1
  LAB_RUN_UP=1
}

# lab_run_finish: the exit of a lab_run_begin run. Only a lab the run brought up goes down (a
# failed up has already cleaned up after itself); prints the time and "N passed, N failed",
# and exits 1 when a step failed.
lab_run_finish() {
  [ -n "$LAB_RUN_UP" ] && lab_step "lab down" "$LABCTL" down
  echo "$LAB_RUN_LABEL: $(($(date +%s) - LAB_RUN_START))s in all; logs in $LAB_LOGS"
  # A CI log is often read from its end: the failed steps again, each with its log's last lines.
  local failure
  for failure in "${LAB_FAILURES[@]}"; do
    echo "failed: ${failure%%|*}"
    grep -v '^[[:space:]]*$' "${failure#*|}" | tail -n 6 | cut -c1-200 | sed 's/^/  | /'
  done
  echo "$LAB_PASSED passed, $LAB_FAILED failed"
  [ "$LAB_FAILED" -eq 0 ] || exit 1
}

# lab_alone LOGS: a script's steps run alone against the lab that is up (its logs under LOGS):
# fails at once when no lab is up; lab_alone_end prints the count and is the exit status.
lab_alone() {
  lab_init_logs "$1"
  "$LABCTL" status >/dev/null 2>&1 || { echo "no lab is up: make lab"; exit 1; }
}
lab_alone_end() {
  echo "$LAB_PASSED passed, $LAB_FAILED failed; logs in $LAB_LOGS"
  [ "$LAB_FAILED" -eq 0 ]
}

# lab_step NAME CMD...: run CMD with its output in a log, print the outcome with its time
# and the log's last line; on failure also the log's tail. Counts passes and failures.
lab_step() {
  local name=$1; shift
  LAB_STEP=$((LAB_STEP + 1))
  local log start status seconds last
  log="$LAB_LOGS/$(printf %02d "$LAB_STEP")-${name//[^A-Za-z0-9_.-]/_}.log"
  start=$(date +%s)
  "$@" </dev/null >"$log" 2>&1
  status=$?
  seconds=$(($(date +%s) - start))
  last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c1-110)
  if [ "$status" -eq 0 ]; then
    LAB_PASSED=$((LAB_PASSED + 1))
    printf '  ok   %4ss  %s%s\n' "$seconds" "$name" "${last:+  | $last}"
  else
    LAB_FAILED=$((LAB_FAILED + 1))
    LAB_FAILURES+=("$name|$log")
    printf '  FAIL %4ss  %s (exit %s; log %s)\n' "$seconds" "$name" "$status" "$log"
    tail -n 25 "$log" | sed 's/^/       | /'
  fi
  return "$status"
}

# Debian's ansible-mitogen (scripts/install-deps.sh lab): one Python per node for a whole play,
# modules cached in it, instead of a Python started, a module unpacked and compiled for every
# task. Under emulation that start is most of a task's 8-22 s: site.yml's second run on three
# nodes took 201 s with the linear strategy and 51 s with mitogen_linear (docs/scale.md).
LAB_MITOGEN_STRATEGIES=/usr/lib/python3/dist-packages/ansible_mitogen/plugins/strategy

# lab_playbook linear|mitogen ARGS...: ansible-playbook ARGS from the repository with its
# ansible.cfg, with that strategy (linear where mitogen is not installed; LAB_ANSIBLE_STRATEGY
# overrides it for every play, to compare the two). Mitogen checks host
# keys by host_key_checking alone, not by the inventory's StrictHostKeyChecking=no: the lab's
# VMs, new every run, are not checked (as their ssh options already say).
lab_playbook() {
  local strategy=${LAB_ANSIBLE_STRATEGY:-$1}
  shift
  local settings=(ANSIBLE_CONFIG="$REPO_DIR/ansible.cfg" ANSIBLE_NOCOLOR=1)
  if [ "$strategy" = mitogen ] && [ -d "$LAB_MITOGEN_STRATEGIES" ]; then
    settings+=(ANSIBLE_STRATEGY_PLUGINS="$LAB_MITOGEN_STRATEGIES" ANSIBLE_STRATEGY=mitogen_linear
      ANSIBLE_HOST_KEY_CHECKING=False)
  fi
  (cd "$REPO_DIR" && env "${settings[@]}" ansible-playbook "$@")
}

# lab_nodes: "NAME FABRIC_ADDRESS FABRIC_NETDEV" lines of the running lab.
lab_nodes() { "$LABCTL" nodes; }

# lab_setup_rxe NODE NETDEV: Soft-RoCE on NODE's fabric NIC, the way a role will do it.
lab_setup_rxe() {
  "$LABCTL" ssh "$1" sh -s -- "$2" <"$LAB_DIR/setup-rxe.sh"
}

# lab_share_key FROM PATH NODES...: a new 32-byte key (hex) made on FROM at PATH (0600), and the
# same file on each of NODES, for `ibkit serve --key-file` and its clients.
lab_share_key() {
  local from=$1 path=$2
  shift 2
  "$LABCTL" ssh "$from" "umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n' >$path" &&
    lab_copy_secret "$from" "$path" "$@"
}

# lab_copy_secret FROM PATH NODES...: FROM's file PATH copied to the same PATH on each of NODES
# (FROM itself skipped), readable by its owner alone (0600) there, as an admin copies a key.
lab_copy_secret() {
  local from=$1 path=$2 node
  shift 2
  for node in "$@"; do
    [ "$node" = "$from" ] && continue
    "$LABCTL" ssh "$from" "cat $path" | "$LABCTL" ssh "$node" "umask 077; cat >$path && chmod 600 $path" || return 1
  done
}

# lab_agent_copy: the agent as it goes to the nodes: the host build without its debug
# sections (a third of the size, so a quicker copy into an emulated VM), made once a run.
lab_agent_copy() {
  local copy="$LAB_LOGS/ibkit"
  if [ ! -x "$copy" ]; then
    objcopy --strip-debug "$IBKIT_BIN" "$copy" 2>/dev/null || cp "$IBKIT_BIN" "$copy"
  fi
  echo "$copy"
}

# lab_push_agent NODE: the host-built ibkit and the lab's expected state onto NODE. The agent
# goes in under a new name and is renamed, so a copy still running (a server) is no obstacle.
lab_push_agent() {
  if [ ! -x "$IBKIT_BIN" ]; then
    echo "no agent at $IBKIT_BIN: build it first (make build)"
    return 1
  fi
  local agent
  agent=$(lab_agent_copy) || return 1
  "$LABCTL" ssh "$1" mkdir -p "$(dirname "$GUEST_CONFIG")" &&
    "$LABCTL" push "$1" "$agent" "$GUEST_IBKIT.new" &&
    "$LABCTL" ssh "$1" mv -f "$GUEST_IBKIT.new" "$GUEST_IBKIT" &&
    "$LABCTL" push "$1" "$LAB_DIR/ibkit-lab.toml" "$GUEST_CONFIG" &&
    echo "$1: $GUEST_IBKIT ($(stat -c %s "$agent") bytes), $GUEST_CONFIG"
}

# lab_ibkit NODE ARGS...: run ibkit on NODE; stdout is ibkit's, the exit status too.
lab_ibkit() {
  local node=$1; shift
  "$LABCTL" ssh "$node" "$GUEST_IBKIT" "$@"
}

# lab_fresh_login NODE: the next labctl ssh to NODE logs in anew. labctl shares one SSH
# connection per node, and a session on it keeps the limits (memlock) of the first login.
lab_fresh_login() {
  ssh -F "${IBKIT_LAB_CACHE:-$HOME/.cache/ibkit-lab}/ssh_config" -O exit "$1" >/dev/null 2>&1
  return 0
}

# lab_check_ran STATUS: true for the check's own verdict codes (0 pass, 1 fail), false for
# usage (2), environment (3) and internal (4) errors, which mean the check did not run.
lab_check_ran() { [ "$1" -eq 0 ] || [ "$1" -eq 1 ]; }

# lab_pair SERVER CLIENT 'READY PROBE' 'SERVER CMD' 'CLIENT CMD': a two-sided test. The
# server runs under `timeout` so nothing hangs; the client starts once the probe succeeds on
# the server (it is listening), within 60 s. Passes when both sides exit 0; prints the
# client's output, then the server's.
lab_pair() {
  local server=$1 client=$2 probe=$3 server_cmd=$4 client_cmd=$5
  local server_log="$LAB_LOGS/server-$LAB_STEP.log" server_pid client_status server_status
  "$LABCTL" ssh "$server" "timeout 120 $server_cmd" >"$server_log" 2>&1 &
  server_pid=$!
  local deadline=$(($(date +%s) + 60))
  until "$LABCTL" ssh "$server" "$probe" >/dev/null 2>&1; do
    if ! kill -0 "$server_pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      echo "server on $server not listening within 60s ($probe)"
      kill "$server_pid" 2>/dev/null
      wait "$server_pid"
      cat "$server_log"
      return 1
    fi
    sleep 1
  done
  "$LABCTL" ssh "$client" "timeout 100 $client_cmd"
  client_status=$?
  wait "$server_pid"
  server_status=$?
  echo "--- client ($client) exit $client_status, server ($server) exit $server_status ---"
  cat "$server_log"
  [ "$client_status" -eq 0 ] && [ "$server_status" -eq 0 ]
}

# rxe_mtu NODE: the rxe port's active MTU, as ibv_devinfo shows it.
rxe_mtu() {
  "$LABCTL" ssh "$1" "ibv_devinfo -d rxe0" | awk '/active_mtu:/ { print $2; exit }'
}

# set_fabric_mtu NODE NETDEV MTU RDMA_MTU: the fabric NIC's MTU, and wait (with a deadline)
# until rxe runs RDMA_MTU: it follows the netdev, less its headers (600 gives 512, 1500 1024).
set_fabric_mtu() {
  local node=$1 netdev=$2 mtu=$3 want=$4 seen deadline=$(($(date +%s) + 20))
  "$LABCTL" ssh "$node" "ip link set $netdev mtu $mtu" || return 1
  until seen=$(rxe_mtu "$node") && [ "$seen" = "$want" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "$node: $netdev mtu $mtu, but rxe0 runs active_mtu ${seen:-?}, not $want, after 20 s"
      return 1
    fi
    sleep 1
  done
  echo "$node: $netdev mtu $mtu: rxe0 active_mtu $seen"
}

# Probes for lab_pair: perftest's TCP exchange port, and an rdma_cm listener. (SC2034: they
# are for the scripts that source this file, tier.sh and bench/pair-vs-perftest.sh.)
# shellcheck disable=SC2034
LAB_PERFTEST_READY="ss -Hltn 'sport = :18515' | grep -q LISTEN"
# shellcheck disable=SC2034
LAB_RDMA_CM_READY="rdma resource show cm_id | grep -q 'state LISTEN'"
