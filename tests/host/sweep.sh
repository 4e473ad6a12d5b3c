#!/usr/bin/env bash
# Host tier for `ibkit sweep`: 16 agents (`ibkit serve --key-file`) in 16 network namespaces on
# one bridge (itself in a namespace of its own: 10.251.0.1-16, nothing leaves this machine).
# The sweep runs from node 1, as validate.yml runs it from one node, with no [thresholds]: the
# fleet rule judges the figures (a node whose link is shaped 20x slower must be blamed, the
# healthy fleet must pass, noisy as TCP between namespaces on shared cores is). Each case prints its name
# and PASS/FAIL; every command has a timeout; namespaces and agents go away whatever happens.
# Needs root, iproute2 and python3.
#   BUILD_DIR=build        where agent/ibkit was built
#   SWEEP_NODES=16         how many agents
#   SWEEP_BENCH=1          only time all-pairs sweeps and print the figures (bench/sweep-overhead.sh)
#   SWEEP_HEALTHY_RUNS=N   only run N healthy all-pairs sweeps and print how many passed
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/host/lib.sh
silent_server=(python3 "$PWD/tests/host/peer_client.py" silent-server)
nodes=${SWEEP_NODES:-16}
duration=0.2  # seconds of TCP per pair

host_require_agent "sweep tier"
host_require_namespaces "sweep tier"

prefix="ibks$$"
bridge_ns="$prefix-br"
work=$(mktemp -d /tmp/ibkit-sweep.XXXXXX)
declare -a agent_pid
extra_pids=""

cleanup() {
  # Only the processes this script started, by their ids; then the namespaces (and the veths).
  # SIGTERM: an agent stops cleanly at once (and the shell reports no "Killed" lines).
  local i
  for pid in $extra_pids; do kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  for i in $(seq "$nodes"); do [ -n "${agent_pid[i]:-}" ] && kill -TERM "${agent_pid[i]}" 2>/dev/null; done
  for i in $(seq "$nodes"); do [ -n "${agent_pid[i]:-}" ] && wait "${agent_pid[i]}" 2>/dev/null; done
  for i in $(seq "$nodes"); do ip netns del "$prefix-$i" 2>/dev/null; done
  ip netns del "$bridge_ns" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ns() { echo "$prefix-$1"; }
# 10.251.0.1-199, then 10.251.1.1 on (a /16): the bench sweeps 256 agents.
addr() { if [ "$1" -lt 200 ]; then echo "10.251.0.$1"; else echo "10.251.1.$(($1 - 199))"; fi; }

set -e
ip netns add "$bridge_ns"
ip netns exec "$bridge_ns" ip link add br0 type bridge
ip netns exec "$bridge_ns" ip link set br0 up
for i in $(seq "$nodes"); do
  ip netns add "$(ns "$i")"
  ip link add "${prefix}n$i" type veth peer name "${prefix}b$i"
  ip link set "${prefix}n$i" netns "$(ns "$i")"
  ip link set "${prefix}b$i" netns "$bridge_ns"
  ip netns exec "$bridge_ns" ip link set "${prefix}b$i" master br0 up
  ip netns exec "$(ns "$i")" ip addr add "$(addr "$i")/16" dev "${prefix}n$i"
  ip netns exec "$(ns "$i")" ip link set "${prefix}n$i" up
  ip netns exec "$(ns "$i")" ip link set lo up
done
# Every namespace knows every other's MAC for good. Otherwise an all-pairs sweep of 64 agents
# makes 64 x 63 ARP entries in the kernel's neighbour table, which all namespaces share
# (gc_thresh3 = 1024): it overflows, SYNs are dropped, and nodes look silent for the harness's
# sake. Permanent entries do not count against the table's limit.
declare -a mac
for i in $(seq "$nodes"); do
  mac[i]=$(ip -n "$(ns "$i")" -o link show dev "${prefix}n$i" | grep -o 'link/ether [0-9a-f:]*')
  mac[i]=${mac[i]#link/ether }
done
for i in $(seq "$nodes"); do
  for j in $(seq "$nodes"); do
    [ "$i" -eq "$j" ] || echo "neigh replace $(addr "$j") lladdr ${mac[j]} dev ${prefix}n$i nud permanent"
  done | ip -n "$(ns "$i")" -batch -
done
set +e

write_keys "$work"
for i in $(seq "$nodes"); do echo "n$i $(addr "$i")"; done >"$work/hosts"

# Starts node i's agent; its own --deadline bounds it.
start_agent() {
  ip netns exec "$(ns "$1")" "$ibkit" serve --bind "$(addr "$1")" --key-file "$work/key" \
    --deadline 300 --session-timeout 60 2>>"$work/agent$1.log" &
  agent_pid[$1]=$!
}
wait_listening() {
  local i
  for i in "$@"; do
    wait_for_text "$work/agent$i.log" "listening on" 5 || { echo "sweep tier: agent $i did not start"; exit 1; }
  done
}
for i in $(seq "$nodes"); do start_agent "$i"; done
wait_listening $(seq "$nodes")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
below() { awk -v x="$1" -v hi="$2" 'BEGIN { exit !(x < hi) }'; }

# only_victim_blamed OUT VICTIM BLAME: the sweep's summary OUT blames node VICTIM alone, with a
# line that starts with BLAME (a grep -E pattern after "blamed  nVICTIM: "), and every pair that
# did not pass has the victim in it. Prints what is wrong and fails otherwise.
only_victim_blamed() {
  local out=$1 victim=$2 blame=$3 stray
  if ! echo "$out" | grep -q -E "^blamed  n$victim: $blame"; then
    echo "n$victim not blamed ($blame): $out"; return 1
  fi
  if [ "$(echo "$out" | grep -c '^blamed')" -ne 1 ]; then echo "more than one blamed: $out"; return 1; fi
  stray=$(echo "$out" | grep -E "^(failed|unreachable|timed_out|slow|not_run)  " | grep -v -E "(^| )n$victim( |,|:)")
  if [ -n "$stray" ]; then echo "pairs without n$victim did not pass: $stray"; return 1; fi
}
rounds=$((nodes % 2 == 0 ? nodes - 1 : nodes))
pairs=$((nodes * (nodes - 1) / 2))
# A bound on a whole sweep: 120 s, or 3 s a round for the benchmark's larger fabrics.
sweep_timeout=$((rounds * 3 > 120 ? rounds * 3 : 120))
# From node 1, over the hosts file; extra flags follow. One way: TCP is judged on its sum either
# way (docs/verdicts.md), and both ways would double the streams 16 agents run on two cores.
sweep() {
  timeout "$sweep_timeout" ip netns exec "$(ns 1)" "$ibkit" sweep --hosts "$work/hosts" --test tcp \
    --one-way --duration "$duration" --pair-deadline 10 --connect-timeout 2 "$@"
}

case_all_pairs() {
  local name="all-pairs TCP sweep of $nodes agents: every pair passes in about rounds x pair time"
  local start out status wall ideal
  start=$(now)
  out=$(sweep --key-file "$work/key" --output "$work/report" --format json,junit 2>&1)
  status=$?
  wall=$(elapsed "$start" 2)
  ideal=$(awk -v r="$rounds" -v d="$duration" 'BEGIN { printf "%.2f", r * d }')
  echo "      wall $wall s, ideal $rounds rounds x $duration s = $ideal s, ratio $(ratio "$wall" "$ideal")"
  if [ $status -ne 0 ]; then fail "$name" "exit $status: $out"; return; fi
  if [[ "$out" != *": $pairs pairs ($pairs pass)"* ]]; then fail "$name" "$out"; return; fi
  local in_json
  in_json=$(PYTHONPATH=tests/python python3 -c "import json,sys; from sweep_pairs import sweep_pairs; r=json.load(open(sys.argv[1])); print(len(sweep_pairs(r)), r['verdict'])" \
    "$work/report/report.json" 2>&1)
  if [ "$in_json" != "$pairs pass" ] || [ ! -s "$work/report/junit.xml" ]; then
    fail "$name" "report.json says '$in_json'"; return
  fi
  # Serial would be $pairs x $duration; parallel rounds must stay well under half of that.
  below "$wall" "$(awk -v p="$pairs" -v d="$duration" 'BEGIN { print p * d / 2 }')" ||
    { fail "$name" "took $wall s: rounds are not running at once"; return; }
  below "$(ratio "$wall" "$ideal")" 4 || { fail "$name" "wall/ideal over 4"; return; }
  pass "$name"
}

case_killed_agent() {
  local name="an agent killed mid-sweep: its pairs are marked and the node is blamed"
  local victim=7 out status
  sweep --key-file "$work/key" >"$work/killed.out" 2>&1 &
  local sweeper=$!
  extra_pids="$sweeper"
  sleep 1
  kill -9 "${agent_pid[victim]}"
  wait "${agent_pid[victim]}" 2>/dev/null  # (the shell reports it "Killed": that is the test)
  agent_pid[victim]=""
  wait "$sweeper"
  status=$?
  extra_pids=""
  out=$(cat "$work/killed.out")
  start_agent "$victim"
  wait_listening "$victim"
  echo "$out" | grep -E "^(blamed|PASS|FAIL)" | indent 6
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  local wrong
  if ! wrong=$(only_victim_blamed "$out" "$victim" "every pair from round [0-9]* on"); then
    fail "$name" "$wrong"; return
  fi
  pass "$name"
}

case_link_flap() {
  local name="a node cut off for 7 s mid-sweep is rechecked once it is back: nobody is blamed"
  local victim=5 out status
  # The bridge side of its veth down from the start for the question every node is asked before
  # the first round and two of its pairs (2 s connect timeout each: it is in every round), which
  # skips it for the rest of the rounds; back before the retests. An outage in the middle of a
  # transfer only stalls it: a slow pair, not silence.
  ip -n "$bridge_ns" link set "${prefix}b$victim" down
  (sleep 7 && ip -n "$bridge_ns" link set "${prefix}b$victim" up) &
  local flapper=$!
  extra_pids="$flapper"
  out=$(sweep --key-file "$work/key" --output "$work/flap" --format json 2>&1)
  status=$?
  wait "$flapper"
  extra_pids=""
  ip -n "$bridge_ns" link set "${prefix}b$victim" up
  echo "$out" | grep -E "^(ibkit sweep|blamed)" | cut -c1-200 | indent 6
  if [ $status -ne 0 ]; then fail "$name" "exit $status: $out"; return; fi
  if [[ "$out" != *": $pairs pairs ($pairs pass)"* ]]; then fail "$name" "$out"; return; fi
  # The outage must have made it silent twice in a row, or the case proves nothing: before the
  # recheck that skipped a node for good and blamed it.
  local silent
  silent=$(PYTHONPATH=tests/python python3 - "$work/flap/report.json" "n$victim" 2>"$work/flap/reasons" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report, victim = json.load(open(sys.argv[1])), sys.argv[2]
mine = [p for p in sweep_pairs(report) if victim in (p["a"], p["b"])]
for p in mine:
    if p["reason"]:
        print(f"round {p['round']} {p['a']}-{p['b']}: {p['reason'][:150]}", file=sys.stderr)
print(sum(1 for p in mine if p["reason"].startswith("passed on retest; first attempt")))
PY
)
  indent 6 <"$work/flap/reasons"
  echo "      n$victim silent in $silent pairs, then back: they passed on retest"
  [ "${silent:-0}" -ge 2 ] || { fail "$name" "n$victim was silent in $silent pairs, not 2: $out"; return; }
  pass "$name"
}

case_wrong_key() {
  local name="a coordinator with the wrong key is refused before the first round in one line (exit 3, not every node blamed), and the agents say why"
  local out status
  out=$(sweep --key-file "$work/wrong.key" --pattern ring 2>&1)
  status=$?
  if [ $status -ne 3 ]; then fail "$name" "exit $status: $out"; return; fi
  if [[ "$out" != "ibkit sweep: none of the $nodes nodes answered before the first round"*"the peer does not hold this key"*"give --key-file the key the agents were started with" ]] ||
    [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then
    fail "$name" "$out"; return
  fi
  grep -qF "the peer does not hold this key (TLS handshake failed)" "$work/agent2.log" ||
    { fail "$name" "agent 2 did not log the refusal"; return; }
  pass "$name"
}

case_silent_node() {
  local name="a node that never answers: the sweep still ends within its --deadline"
  local last=$nodes
  kill -9 "${agent_pid[last]}"
  wait "${agent_pid[last]}" 2>/dev/null
  agent_pid[last]=""
  ip netns exec "$(ns "$last")" "${silent_server[@]}" 18515 --deadline 60 >"$work/silent.out" 2>&1 &
  local silent=$!
  extra_pids="$silent"
  wait_for_text "$work/silent.out" listening 5
  local start out status wall deadline=6
  start=$(now)
  out=$(sweep --key-file "$work/key" --deadline "$deadline" 2>&1)
  status=$?
  wall=$(elapsed "$start" 2)
  kill -9 "$silent"; wait "$silent" 2>/dev/null
  extra_pids=""
  start_agent "$last"
  wait_listening "$last"
  echo "      ended after $wall s (--deadline $deadline s)"
  echo "$out" | grep -E "^(ibkit sweep|blamed)" | indent 6
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  below "$wall" $((deadline + 2)) || { fail "$name" "took $wall s"; return; }
  if [[ "$out" != *"n$last"* ]]; then fail "$name" "n$last not named: $out"; return; fi
  pass "$name"
}

case_slow_node() {
  local name="a node whose link is 20x slower is slow in every pair and blamed, with no [thresholds]"
  local victim=$((nodes / 2)) out status
  # Both ends of its veth, so that what it sends and what it receives are both held to ~50 Mb/s
  # (tbf: the token bucket is built into kernels that lack netem).
  local ifaces=("$(ns "$victim")" "${prefix}n$victim" "$bridge_ns" "${prefix}b$victim")
  local i
  for i in 0 2; do
    if ! ip netns exec "${ifaces[i]}" tc qdisc add dev "${ifaces[i + 1]}" root tbf rate 50mbit burst 64kb \
      latency 100ms; then
      fail "$name" "tc cannot shape ${ifaces[i + 1]} here (no tbf qdisc)"; return
    fi
  done
  out=$(sweep --key-file "$work/key" --output "$work/slow" --format json 2>&1)
  status=$?
  for i in 0 2; do ip netns exec "${ifaces[i]}" tc qdisc del dev "${ifaces[i + 1]}" root; done
  echo "$out" | grep -E "^(ibkit sweep|blamed|The fleet rule)" | cut -c1-200 | indent 6
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  local wrong
  if ! wrong=$(only_victim_blamed "$out" "$victim" "every pair failed or was slow \([0-9]* slow\): fleet: tcp "); then
    fail "$name" "$wrong"; return
  fi
  # report.json: each of the victim's pairs slow by the fleet rule alone, the others passed by it.
  local judged
  judged=$(PYTHONPATH=tests/python python3 - "$work/slow/report.json" "n$victim" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
victim = sys.argv[2]
pairs = sweep_pairs(report)
bad = [p for p in pairs if victim in (p["a"], p["b"])]
good = [p for p in pairs if victim not in (p["a"], p["b"])]
print(len(bad), all(p["status"] == "slow" and p["rule"] == "fleet" for p in bad),
      all(p["status"] == "pass" and p["rule"] == "fleet" for p in good),
      report["fleet"]["on"], len(report["fleet"]["references"]))
PY
)
  if [ "$judged" != "$((nodes - 1)) True True True 1" ]; then
    fail "$name" "report.json: pairs of n$victim, all slow by fleet, others pass by fleet, fleet on, references: $judged"
    return
  fi
  pass "$name"
}

# launched_sweep PORT OUT ARGS...: `ibkit sweep --launch ssh` from node 1 over nodes 1-4 and an
# address nobody answers on (fake_ssh.sh reaches the namespaces), its servers on PORT.
launched_sweep() {
  local port=$1 out=$2
  shift 2
  mkdir -p "$work/bin" && ln -sf "$PWD/tests/host/fake_ssh.sh" "$work/bin/ssh"
  timeout 120 ip netns exec "$(ns 1)" env PATH="$work/bin:$PATH" FAKE_SSH_PREFIX="$prefix" \
    "$ibkit" sweep --launch ssh --hosts "$(addr 1),$(addr 2),$(addr 3),$(addr 4),10.251.0.250" \
    --remote-ibkit "$ibkit" --port "$port" --test tcp --one-way --pair-deadline 10 \
    --connect-timeout 2 --output "$out" "$@"
}

# launched_left PORT: the launched servers on PORT still running, one per line (the agents
# themselves, not the shells and launchers whose command lines name them).
launched_left() { pgrep -a -f "^$ibkit serve --port $1 --key-file -"; }

case_launched() {
  local name="--launch ssh: checks and servers started over ssh, 6 pairs pass, the silent address named, nothing left"
  local out status judged
  out=$(launched_sweep 18800 "$work/launched" --duration "$duration" 2>&1)
  status=$?
  echo "$out" | grep -E "^ibkit sweep: " | cut -c1-160 | indent 6
  if [ $status -ne 1 ]; then fail "$name" "exit $status (1: the unreachable address fails it): $out"; return; fi
  judged=$(PYTHONPATH=tests/python python3 - "$work/launched/report.json" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
checks = {c["host"]: [r["id"] for r in c["results"] if r["status"] == "fail"] for c in report["node_checks"]}
print(sorted(report["nodes"]), sorted({p["status"] for p in sweep_pairs(report)}),
      len(sweep_pairs(report)), checks.get("10.251.0.250"), sorted(checks))
PY
)
  # Nodes are named as they were given (the addresses), never by the host name they report.
  local given="['10.251.0.1', '10.251.0.2', '10.251.0.3', '10.251.0.4']"
  local checked="['10.251.0.1', '10.251.0.2', '10.251.0.250', '10.251.0.3', '10.251.0.4']"
  if [ "$judged" != "$given ['pass'] 6 ['launch.reachable'] $checked" ]; then
    fail "$name" "report.json: nodes, pair outcomes, pairs, the address's failed checks, checked hosts: $judged"
    return
  fi
  if launched_left 18800; then fail "$name" "servers left running"; return; fi
  pass "$name"
}

case_launched_killed() {
  local name="--launch ssh killed (SIGKILL) mid-sweep: every server it started is gone within 8 s (3 s of grace for a test in progress)"
  local sweeper start
  launched_sweep 18801 "$work/launched-killed" --duration 5 >"$work/launched-killed.log" 2>&1 &
  sweeper=$!
  extra_pids="$sweeper"
  start=$(now)
  # Killed a second into the first round: two of the servers are in a test then.
  if ! wait_for_text "$work/launched-killed.log" "sweeping 4 nodes" 20 || [ "$(launched_left 18801 | wc -l)" -ne 4 ]; then
    fail "$name" "4 servers not up in 20 s: $(cat "$work/launched-killed.log")"; return
  fi
  sleep 1
  # The agent itself, not the shell or timeout around it.
  pkill -9 -f "^$ibkit sweep --launch ssh .*--port 18801 " || { fail "$name" "no sweep to kill"; return; }
  wait "$sweeper" 2>/dev/null
  extra_pids=""
  start=$(now)
  while launched_left 18801 >/dev/null && below "$(elapsed "$start")" 8; do sleep 0.2; done
  if launched_left 18801; then fail "$name" "still running $(elapsed "$start") s after the sweep was killed"; return; fi
  pass "$name"
}

if [ -n "${SWEEP_HEALTHY_RUNS:-}" ]; then
  # How often a healthy fleet passes with no thresholds: the fleet rule's false positives on real
  # processes (docs/verdicts.md). Prints the count and each flagged sweep's pairs.
  passed=0
  for run in $(seq "$SWEEP_HEALTHY_RUNS"); do
    if out=$(sweep --key-file "$work/key" 2>&1); then
      passed=$((passed + 1))
    else
      echo "run $run flagged:"; echo "$out" | grep -E "^(blamed|slow|failed|unreachable|timed_out|not_run)  " | cut -c1-240 | indent 6
    fi
  done
  echo "healthy all-pairs sweeps of $nodes agents that passed: $passed of $SWEEP_HEALTHY_RUNS"
  exit $((passed == SWEEP_HEALTHY_RUNS ? 0 : 1))
fi

if [ "${SWEEP_BENCH:-}" = 1 ]; then
  # "nodes rounds duration wall mean-pair" per run, for bench/sweep-overhead.sh.
  for _ in $(seq "${SWEEP_BENCH_RUNS:-3}"); do
    start=$(now)
    out=$(sweep --key-file "$work/key" 2>&1) || { echo "bench: sweep failed: $out"; exit 1; }
    wall=$(elapsed "$start" 2)
    mean=$(echo "$out" | sed -n 's/.*a pair took \([0-9.]*\) s on average.*/\1/p')
    echo "$nodes $rounds $duration $wall $mean"
  done
  exit 0
fi

started=$(date +%s)
run_cases case_all_pairs case_slow_node case_killed_agent case_link_flap case_wrong_key case_silent_node \
  case_launched case_launched_killed
echo "sweep tier took $(($(date +%s) - started)) s (after setting up $nodes namespaces)"
cases_summary
