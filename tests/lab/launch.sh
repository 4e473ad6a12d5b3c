#!/bin/bash
# `ibkit sweep --launch`: one command validates the lab with nothing started beforehand. Over
# ssh, from the first node as a cluster's admin runs it (one hop from every node; the host is
# not on the fabric segment the sweep's servers listen on): the three nodes' pairs pass, and a
# name that does not resolve and a node that does not answer are named in the report within
# the connect timeout. Through Slurm (launch_slurm_steps, run by slurm.sh once slurmd is up): a
# batch job sweeps its allocation and passes; with one node's server killed mid-sweep that node
# is blamed; scancel of a running sweep leaves nothing behind. After each, no ibkit serve or
# check is left on any node (ps). Sourced (LAUNCH_SOURCED=1) it only defines the steps; run
# alone it runs the ssh steps against the lab that is up.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
VALIDATE_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/validate.sh"

LAUNCH_OUT=/tmp/ibkit-launch
# Latency alone keeps each sweep short on emulated nodes; the launch is what is under test.
LAUNCH_TESTS="--test lat --iters 200 --node-config $GUEST_CONFIG"

# launch_ssh_trust FROM NODES...: root on FROM logs in to every node with its own key, new host
# keys accepted, as an admin's own ssh setup does.
launch_ssh_trust() {
  local from=$1 node pub
  shift
  pub=$("$LABCTL" ssh "$from" "[ -s /root/.ssh/id_ed25519 ] || ssh-keygen -q -t ed25519 -N '' -f /root/.ssh/id_ed25519;
    printf 'StrictHostKeyChecking accept-new\n' >/root/.ssh/config; cat /root/.ssh/id_ed25519.pub") || return 1
  for node in "$@"; do
    "$LABCTL" ssh "$node" "grep -qxF '$pub' /root/.ssh/authorized_keys || echo '$pub' >>/root/.ssh/authorized_keys" ||
      return 1
  done
}

# launch_nothing_left NODES...: no ibkit serve or ibkit check runs on any of NODES.
launch_nothing_left() {
  local node left=0 found
  for node in "$@"; do
    # The bracket keeps the pattern from matching the shell that runs pgrep.
    if found=$("$LABCTL" ssh "$node" "pgrep -a -f '[i]bkit (serve|check)'"); then
      echo "$node: still running: $found"
      left=1
    fi
  done
  [ "$left" -eq 0 ] && echo "no ibkit serve or check left on $*"
}

# launch_wait_left NODES...: as launch_nothing_left, allowing 20 s for servers to finish going.
launch_wait_left() {
  local end=$(($(date +%s) + 20))
  until launch_nothing_left "$@" >/dev/null; do
    [ "$(date +%s)" -lt "$end" ] || { launch_nothing_left "$@"; return 1; }
    sleep 2
  done
  launch_nothing_left "$@"
}

# launch_fetch NODE DIR LOCAL: the report files NODE wrote into DIR, copied into LOCAL.
launch_fetch() {
  local file
  mkdir -p "$3"
  for file in report.json junit.xml report.html; do
    "$LABCTL" ssh "$1" "cat $2/$file" >"$3/$file" || return 1
  done
}

# launch_report_names REPORT NODES UNREACHABLE: every pair of NODES (comma list) passed, each
# with its check merged, and each of UNREACHABLE (comma list) stands as a failed
# launch.reachable check naming it; the verdict is fail because of them alone.
launch_report_names() {
  PYTHONPATH=$REPO_DIR/tests/python /usr/bin/python3 - "$@" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
nodes, unreachable = sys.argv[2].split(","), sys.argv[3].split(",")
pairs = sweep_pairs(report)
checks = {c.get("host"): c for c in report.get("node_checks", [])}
if sorted(report.get("nodes", [])) != sorted(nodes):
    sys.exit(f"swept {report.get('nodes')}, not {nodes}")
bad = [(p.get("a"), p.get("b"), p.get("status")) for p in pairs if p.get("status") != "pass"]
if bad or len(pairs) != len(nodes) * (len(nodes) - 1) // 2:
    sys.exit(f"pairs: {bad or len(pairs)}")
for node in nodes:
    failed = [r.get("id") for r in checks.get(node, {}).get("results", []) if r.get("status") == "fail"]
    if node not in checks or failed:
        sys.exit(f"{node}: check {'missing' if node not in checks else 'failed ' + str(failed)}")
for name in unreachable:
    results = checks.get(name, {}).get("results", [])
    if not any(r.get("id") == "launch.reachable" and r.get("status") == "fail" and name in r.get("hint", "")
               for r in results):
        sys.exit(f"{name} is not named unreachable: {results}")
    print(f"{name}: {results[0].get('hint')}")
if report.get("verdict") != "fail":
    sys.exit(f"verdict {report.get('verdict')} with unreachable nodes")
print(f"{len(pairs)} pairs of {', '.join(nodes)} pass; the unreachable named; verdict fail")
PY
}

# launch_ssh_sweep: from the first node, --launch ssh over every node, a name that does not
# resolve and one whose address nobody answers on.
launch_ssh_sweep() {
  local rows row name address coordinator="" names=() silent start status seconds
  mapfile -t rows < <(lab_nodes)
  for row in "${rows[@]}"; do
    read -r name address _ <<<"$row"
    names+=("$name")
    [ -z "$coordinator" ] && coordinator=$name
  done
  silent="${address%.*}.199"
  launch_ssh_trust "$coordinator" "${names[@]}" || return 1
  "$LABCTL" ssh "$coordinator" "grep -q ' silentnode\$' /etc/hosts || echo '$silent silentnode' >>/etc/hosts" || return 1
  start=$(date +%s)
  "$LABCTL" ssh "$coordinator" "rm -rf $LAUNCH_OUT-ssh; timeout 400 $GUEST_IBKIT sweep --launch ssh \
    --hosts $(IFS=,; echo "${names[*]}"),nosuchnode,silentnode --connect-timeout 5 $LAUNCH_TESTS \
    --output $LAUNCH_OUT-ssh" >"$LAB_LOGS/launch-ssh.log" 2>&1
  status=$?
  seconds=$(($(date +%s) - start))
  grep -E '^ibkit sweep:' "$LAB_LOGS/launch-ssh.log"
  echo "ibkit sweep --launch ssh exited $status after $seconds s"
  [ "$status" -eq 1 ] || return 1
  # The checks and the servers wait for ssh's connect timeout at most, not a mystery timeout.
  [ "$seconds" -lt 150 ] || { echo "the unreachable took $seconds s to be named"; return 1; }
  launch_fetch "$coordinator" "$LAUNCH_OUT-ssh" "$LAB_LOGS/launch-ssh" &&
    launch_report_names "$LAB_LOGS/launch-ssh/report.json" "$(IFS=,; echo "${names[*]}")" nosuchnode,silentnode &&
    launch_wait_left "${names[@]}"
}

# launch_slurm_job NAME SBATCH_ARGS...: an sbatch of NAME on the controller, as a user submits
# it (the script's output in /tmp/NAME.out there); prints the job id.
launch_slurm_job() {
  local name=$1
  shift
  "$LABCTL" ssh "$SLURM_CONTROLLER" "cd /tmp && rm -f /tmp/$name.out && sbatch --parsable -J $name -o /tmp/$name.out $*"
}

# launch_slurm_wait JOB SECONDS: the job has ended; prints its state and exit code.
launch_slurm_wait() {
  slurm_wait "$SLURM_CONTROLLER" "$2" \
    "scontrol -o show job $1 | grep -oE 'JobState=[A-Z_]+|ExitCode=[0-9:]+' | tr '\n' ' ' | tee /tmp/job-$1.state;
     ! grep -qE 'JobState=(PENDING|RUNNING|COMPLETING|CONFIGURING)' /tmp/job-$1.state"
}

# launch_slurm_passes: a batch job over every node sweeps its allocation and passes, with each
# node's check in the report, as validate.yml's.
launch_slurm_passes() {
  local job count=${#SLURM_ROWS[@]}
  job=$(launch_slurm_job ibkit-sweep -N "$count" --wrap "'$GUEST_IBKIT sweep --launch slurm $LAUNCH_TESTS --output $LAUNCH_OUT-slurm'") ||
    return 1
  launch_slurm_wait "$job" 400 | tail -n 1
  "$LABCTL" ssh "$SLURM_CONTROLLER" "grep -E '^ibkit sweep:' /tmp/ibkit-sweep.out; grep -q 'ExitCode=0:0' /tmp/job-$job.state" ||
    return 1
  launch_fetch "$SLURM_CONTROLLER" "$LAUNCH_OUT-slurm" "$LAB_LOGS/launch-slurm" &&
    validate_report_holds "$LAB_LOGS/launch-slurm" pass &&
    launch_wait_left "${SLURM_NAMES[@]}"
}

# launch_slurm_servers_up SECONDS: every node runs its ibkit serve.
launch_slurm_servers_up() {
  local end=$(($(date +%s) + $1)) name up
  while [ "$(date +%s)" -lt "$end" ]; do
    up=0
    for name in "${SLURM_NAMES[@]}"; do
      "$LABCTL" ssh "$name" "pgrep -f '[i]bkit serve' >/dev/null" && up=$((up + 1))
    done
    [ "$up" -eq "${#SLURM_NAMES[@]}" ] && return 0
    sleep 2
  done
  echo "ibkit serve not on every node within $1 s"
  return 1
}

# launch_slurm_server_killed NODE first|second: NODE's server killed a second into its first pair
# of a job's sweep (as B: a peer connected to its server) or into the pair it drives (as A: it
# connected to a peer's server), watched for on NODE itself. The report blames no other node
# and the other nodes' pair passes: the partner NODE left mid-test must not wait out a stall
# timeout and turn its next pair away as busy (which blamed it). Killed in its first pair, NODE
# is blamed (both its pairs are bad). Nothing is left running.
launch_slurm_server_killed() {
  local node=$1 when=$2 job filter="sport = :18515"
  [ "$when" = second ] && filter="dport = :18515"
  job=$(launch_slurm_job ibkit-killed -N "${#SLURM_ROWS[@]}" --wrap \
    "'$GUEST_IBKIT sweep --launch slurm --test bw --duration 5 --node-config $GUEST_CONFIG --output $LAUNCH_OUT-killed'") ||
    return 1
  if ! "$LABCTL" ssh "$node" "timeout 240 sh -c 'until ss -Htn state established \"( $filter )\" | grep -q .; do sleep 0.2; done' &&
      sleep 1 && pkill -KILL -f '[i]bkit serve'"; then
    "$LABCTL" ssh "$SLURM_CONTROLLER" "scancel $job; cat /tmp/ibkit-killed.out"
    return 1
  fi
  echo "$node: ibkit serve killed a second into a pair as $([ "$when" = first ] && echo B || echo A)"
  launch_slurm_wait "$job" 400 | tail -n 1
  "$LABCTL" ssh "$SLURM_CONTROLLER" "grep -E '^ibkit sweep:|^blamed' /tmp/ibkit-killed.out; grep -q 'ExitCode=1:0' /tmp/job-$job.state" ||
    return 1
  mkdir -p "$LAB_LOGS/launch-killed-$when" &&
    "$LABCTL" ssh "$SLURM_CONTROLLER" "cat $LAUNCH_OUT-killed/report.json" >"$LAB_LOGS/launch-killed-$when/report.json" &&
    PYTHONPATH=$REPO_DIR/tests/python /usr/bin/python3 - "$LAB_LOGS/launch-killed-$when/report.json" "$node" "$when" <<'PY' &&
import json, sys
from sweep_pairs import sweep_pairs
report, node, when = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
blamed = [b.get("node") for b in report.get("blamed", [])]
pairs = [(p.get("a"), p.get("b"), p.get("status"), p.get("reason", "")[:160]) for p in sweep_pairs(report)]
others = [p for p in pairs if node not in p[:2]]
if report.get("verdict") != "fail" or any(b != node for b in blamed) or any(p[2] != "pass" for p in others) \
        or (when == "first" and blamed != [node]):
    sys.exit(f"verdict {report.get('verdict')}; blamed {blamed}; pairs {pairs}")
print(f"blamed {blamed or 'nobody'}; the others' pair passed; {node}'s: {[p[2] for p in pairs if node in p[:2]]}")
PY
    launch_wait_left "${SLURM_NAMES[@]}"
}

# launch_slurm_scancel: scancel of a job whose sweep runs leaves no ibkit on any node.
launch_slurm_scancel() {
  local job
  job=$(launch_slurm_job ibkit-cancelled -N "${#SLURM_ROWS[@]}" --wrap \
    "'$GUEST_IBKIT sweep --launch slurm --test bw --duration 20 --node-config $GUEST_CONFIG'") || return 1
  launch_slurm_servers_up 240 || { "$LABCTL" ssh "$SLURM_CONTROLLER" "scancel $job"; return 1; }
  "$LABCTL" ssh "$SLURM_CONTROLLER" "scancel $job" && echo "job $job cancelled with its servers up"
  launch_slurm_wait "$job" 120 | tail -n 1
  launch_wait_left "${SLURM_NAMES[@]}"
}

# launch_slurm_steps: the Slurm launches, once slurmd runs everywhere (slurm.sh calls it).
launch_slurm_steps() {
  local row name
  SLURM_NAMES=()
  for row in "${SLURM_ROWS[@]}"; do
    read -r name _ <<<"$row"
    SLURM_NAMES+=("$name")
  done
  lab_step "slurm: a batch job's ibkit sweep --launch slurm passes, each node's check in its report" \
    launch_slurm_passes
  lab_step "slurm: ${SLURM_NAMES[-1]}'s server killed in its first pair is blamed alone, nothing left running" \
    launch_slurm_server_killed "${SLURM_NAMES[-1]}" first
  lab_step "slurm: ${SLURM_NAMES[-1]}'s server killed driving a pair: its partner's next pair passes, nobody else blamed" \
    launch_slurm_server_killed "${SLURM_NAMES[-1]}" second
  lab_step "slurm: scancel of a running sweep leaves no ibkit on any node" launch_slurm_scancel
}

[ "${LAUNCH_SOURCED:-0}" = 1 ] && return 0

lab_alone lab-launch
lab_step "sweep --launch ssh: every node's pairs pass, the unreachable named in time" launch_ssh_sweep
lab_alone_end
