#!/bin/bash
# Validation of the provisioned lab by playbooks/validate.yml: ibkit check on every node, an
# all-pairs sweep between the nodes' `ibkit serve`s with a key made for the run, one merged
# report fetched to the controller. Sourced (VALIDATE_SOURCED=1) it only defines the steps,
# for tier.sh and make-lab.sh; run alone it validates the lab that is up.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VALIDATE_INVENTORY=$REPO_DIR/inventory/lab

# validate_play NAME REPORTS [ARGS...]: validate.yml against the lab, its reports under
# REPORTS/<UTC time>/ and its log as $LAB_LOGS/play-validate-NAME.log. Prints the play's
# last lines; returns its status.
validate_play() {
  local reports=$2 log="$LAB_LOGS/play-validate-$1.log" status
  shift 2
  lab_playbook mitogen -i "$VALIDATE_INVENTORY" playbooks/validate.yml \
    -e "ibkit_validate_reports=$reports" "$@" >"$log" 2>&1
  status=$?
  grep -E '"msg"|fatal|FAILED' "$log" | tail -n 5
  sed -n '/^PLAY RECAP/,$p' "$log"
  return "$status"
}

# validate_run_dir REPORTS: the newest run folder under REPORTS (with a trailing /), or
# nothing when there is none. Runs are named by their UTC time; baseline/ is not one.
validate_run_dir() {
  local runs=("$1"/[0-9]*/)
  [ -d "${runs[0]}" ] || return 0
  printf '%s\n' "${runs[@]}" | sort | tail -n 1
}

# validate_report_holds REPORT_DIR pass|fail [NODE CHECK_ID]: the run folder has the JSON,
# JUnit and HTML reports, and the merged verdict is as wanted; for fail, NODE is named with a
# failed CHECK_ID result or as the cause of its pairs.
validate_report_holds() {
  local dir=$1
  shift
  for file in report.json junit.xml report.html; do
    [ -s "$dir/$file" ] || { echo "no $file in $dir"; return 1; }
  done
  PYTHONPATH=$REPO_DIR/tests/python /usr/bin/python3 - "$dir/report.json" "$@" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
want = sys.argv[2]
nodes = report.get("nodes", [])
pairs = sweep_pairs(report)
checks = {c.get("host"): c for c in report.get("node_checks", [])}
verdict = report.get("verdict")
if report.get("schema") != "ibkit.sweep/3":
    sys.exit(f"schema {report.get('schema')!r}")
if want == "pass":
    bad = [p for p in pairs if p.get("status") != "pass"]
    if verdict != "pass" or bad or len(checks) != len(nodes):
        sys.exit(f"verdict {verdict}; pairs not passing {bad}; checks from {sorted(checks)} of {nodes}")
    print(f"pass: {len(nodes)} nodes checked, {len(pairs)} pairs pass, JUnit and HTML written")
    sys.exit(0)
node, check_id = sys.argv[3], sys.argv[4]
failed = [r for r in checks.get(node, {}).get("results", [])
          if r.get("status") == "fail" and r.get("id") == check_id]
blamed = [b for b in report.get("blamed", []) if b.get("node") == node]
its_pairs = [p for p in pairs if node in (p.get("a"), p.get("b"))]
if verdict != "fail" or not failed:
    sys.exit(f"verdict {verdict}; {node} {check_id} failures: {failed}; blamed {report.get('blamed')}")
if any(p.get("status") == "pass" for p in its_pairs):
    sys.exit(f"a pair with {node} passed with its fabric link down: {its_pairs}")
print(f"fail, naming {node}: {check_id} {failed[0].get('observed')}"
      f"{'; blamed: ' + blamed[0].get('reason', '') if blamed else ''}; "
      f"its pairs: {sorted({p.get('status') for p in its_pairs})}")
PY
}

# validate_passes: validate.yml passes on the converged lab and writes its reports.
validate_passes() {
  local reports="$LAB_LOGS/reports-pass"
  validate_play pass "$reports" || return 1
  validate_report_holds "$(validate_run_dir "$reports")" pass
}

# validate_names_fault NODE NETDEV: with NODE's fabric link pulled, validate.yml fails and its
# report names NODE and its port; the link comes back afterwards.
validate_names_fault() {
  local node=$1 netdev=$2 reports="$LAB_LOGS/reports-fault" status
  "$LABCTL" fault "$node" link-down || return 1
  validate_play fault "$reports" -e ibkit_validate_tests=lat -e ibkit_validate_pair_deadline=30
  status=$?
  "$LABCTL" fault "$node" link-up >/dev/null && lab_setup_rxe "$node" "$netdev" >/dev/null
  [ "$status" -ne 0 ] || { echo "validate.yml passed with $node's fabric link down"; return 1; }
  validate_report_holds "$(validate_run_dir "$reports")" fail "$node" port.state
}

# validate_judged REPORT_DIR slow|capped|lossy|mtu NODE: the report judged NODE as wanted.
# slow: with no [thresholds], every pair with NODE is slow by the fleet rule, every other pair
# passes, and NODE is blamed. capped: as slow, the blame names the way NODE sends, and the slow
# pairs' reports show the ACK timeout of 22 the sweep asked for. lossy:
# every pair with NODE is slow or failed, each naming the sequence errors its transport
# counters saw, every other pair passes, and NODE is blamed. mtu: every pair passes, NODE's
# only failed check is port.mtu, and each of its pairs warns (pair.ends) naming the MTUs of
# both ends, 1024 and 512.
validate_judged() {
  PYTHONPATH=$REPO_DIR/tests/python /usr/bin/python3 - "$1/report.json" "$2" "$3" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
mode, node = sys.argv[2], sys.argv[3]
pairs = sweep_pairs(report)
mine = [p for p in pairs if node in (p.get("a"), p.get("b"))]
others = [p for p in pairs if p not in mine]
brief = [(p.get("a"), p.get("b"), p.get("status"), p.get("rule"), p.get("reason")) for p in pairs]
if report.get("verdict") != "fail" or not mine or not others:
    sys.exit(f"verdict {report.get('verdict')}; pairs {brief}")
if any(p.get("status") != "pass" for p in others):
    sys.exit(f"a pair without {node} did not pass: {brief}")

def blame_of_node_alone():
    """The reason the report blames node, which must be the one node it blames."""
    blamed = [b for b in report.get("blamed", []) if b.get("node") == node]
    if not blamed or len(report.get("blamed", [])) != 1:
        sys.exit(f"blamed {report.get('blamed')}, not {node} alone")
    return blamed[0].get("reason")

if mode == "slow":
    fleet = report.get("fleet") or {}
    if not fleet.get("on"):
        sys.exit(f"the fleet rule was not on: {fleet}")
    if any(p.get("status") != "slow" or p.get("rule") != "fleet" for p in mine):
        sys.exit(f"{node}'s pairs are not all slow by the fleet rule alone: {brief}")
    print(f"{node} blamed: {blame_of_node_alone()}; its pairs: {mine[0].get('reason')}")
    sys.exit(0)
if mode == "capped":
    # A sender slowed at the source: the fleet rule finds the ways it sends short in every one of
    # its pairs (and may find the way back short in some: its acknowledgements queue too).
    if any(p.get("status") != "slow" or p.get("rule") != "fleet" for p in mine):
        sys.exit(f"{node}'s pairs are not all slow by the fleet rule alone: {brief}")
    reason = blame_of_node_alone()
    if f"{node} sends" not in reason:
        sys.exit(f"{node} is blamed without naming the way it sends: {reason}")
    timers = {t.get("verbs", {}).get("ack_timeout") for d in report.get("details", [])
              for t in d.get("report", {}).get("tests", []) if t.get("verbs")}
    if timers != {22}:
        sys.exit(f"the slow pairs' reports show ACK timeouts {timers}, not the 22 asked for")
    print(f"{node} blamed: {reason}")
    sys.exit(0)
if mode == "lossy":
    # Soft-RoCE's go-back-N may stall outright under loss (no completion for 10 s): slow or
    # failed, each pair must name the sequence errors its counters saw.
    if any(p.get("status") not in ("slow", "failed") or "(sequence errors)" not in p.get("reason", "")
           for p in mine):
        sys.exit(f"{node}'s pairs do not all name the sequence errors they counted: {brief}")
    print(f"{node} blamed: {blame_of_node_alone()}; its pairs: {[p.get('reason') for p in mine]}")
    sys.exit(0)
if any(p.get("status") != "pass" for p in mine):
    sys.exit(f"a pair with {node} at a smaller MTU did not pass: {brief}")
failed = [(c.get("host"), r.get("id")) for c in report.get("node_checks", [])
          for r in c.get("results", []) if r.get("status") == "fail"]
if not failed or any(r != "port.mtu" for _, r in failed):
    sys.exit(f"failed checks {failed}, not port.mtu alone")
for pair in mine:
    warns = [r.get("observed", "") for r in pair["warnings"] if r.get("id") == "pair.ends"]
    if not any("1024" in w and "512" in w for w in warns):
        sys.exit(f"pair {pair.get('a')}-{pair.get('b')} has no pair.ends warning with both MTUs: {warns}")
print(f"failed checks {failed}; every pair passes; {node}'s pairs warn: {warns[0]}")
PY
}

# validate_blames_under_fault MODE NODE NETDEV TESTS QDISC [ARGS...]: NODE's fabric NIC sends
# through the tc QDISC for one validate.yml run of TESTS (no [thresholds] in the lab) with ARGS,
# which must fail with the merged report judging NODE as MODE says (validate_judged); the qdisc
# goes afterwards.
validate_blames_under_fault() {
  local mode=$1 node=$2 netdev=$3 tests=$4 qdisc=$5 reports="$LAB_LOGS/reports-$1" status
  shift 5
  "$LABCTL" ssh "$node" "tc qdisc replace dev $netdev root $qdisc" || return 1
  validate_play "$mode" "$reports" -e "ibkit_validate_tests=$tests" -e ibkit_validate_pair_deadline=90 "$@"
  status=$?
  "$LABCTL" ssh "$node" "tc qdisc del dev $netdev root" || return 1
  [ "$status" -ne 0 ] || { echo "validate.yml passed with $node sending through $qdisc"; return 1; }
  validate_judged "$(validate_run_dir "$reports")" "$mode" "$node"
}

# A latency test through a 20 ms delay: 300 round trips (13 s a pair) instead of the default
# 1000 (42 s), which made the two slowed runs below 3 and 5 minutes of the lab tier.
VALIDATE_SLOWED_ITERATIONS=300

# validate_blames_slow_node NODE NETDEV: NODE's fabric NIC delays every packet 20 ms (netem),
# about 10x the lab's latency; only the fleet rule can find it.
validate_blames_slow_node() {
  validate_blames_under_fault slow "$1" "$2" lat "netem delay 20ms" \
    -e "ibkit_validate_iterations=$VALIDATE_SLOWED_ITERATIONS"
}

# validate_blames_lossy_node NODE NETDEV: NODE's fabric NIC drops 3% of the packets it sends
# (netem loss), a lossy cable's shape. A median latency hardly moves when 3% of round trips
# stall: the transport counters its pairs read must find it.
validate_blames_lossy_node() { validate_blames_under_fault lossy "$1" "$2" bw "netem loss 3%"; }

# validate_fails_against_baseline: validate_passes's run (all tests) left the reports' baseline;
# now every node's fabric NIC delays what it sends by 20 ms alike (netem), 5-10x the lab's
# latency. No node stands out, so with no [thresholds] the fleet rule passes every pair: the
# run (the latency test alone) must fail through the baseline alone, every pair slow by it
# naming the lab's factor, and the baseline must still be the passing run's afterwards.
validate_fails_against_baseline() {
  local reports="$LAB_LOGS/reports-pass" baseline kept status row name netdev
  local -a rows
  baseline="$reports/baseline/report.json"
  [ -s "$baseline" ] || { echo "validate_passes's run left no $baseline"; return 1; }
  kept=$(sha256sum <"$baseline")
  mapfile -t rows < <(lab_nodes)
  for row in "${rows[@]}"; do
    read -r name _ netdev <<<"$row"
    "$LABCTL" ssh "$name" "tc qdisc replace dev $netdev root netem delay 20ms" || return 1
  done
  validate_play slowed "$reports" -e ibkit_validate_tests=lat -e ibkit_validate_pair_deadline=90 \
    -e "ibkit_validate_iterations=$VALIDATE_SLOWED_ITERATIONS"
  status=$?
  for row in "${rows[@]}"; do
    read -r name _ netdev <<<"$row"
    "$LABCTL" ssh "$name" "tc qdisc del dev $netdev root" || return 1
  done
  [ "$status" -ne 0 ] || { echo "validate.yml passed with every node 20 ms slower than its baseline"; return 1; }
  [ "$(sha256sum <"$baseline")" = "$kept" ] || { echo "the failing run replaced the baseline"; return 1; }
  PYTHONPATH=$REPO_DIR/tests/python /usr/bin/python3 - "$(validate_run_dir "$reports")report.json" <<'PY'
import json, sys
from sweep_pairs import sweep_pairs
report = json.load(open(sys.argv[1]))
pairs = sweep_pairs(report)
baseline = report.get("baseline") or {}
brief = [(p.get("a"), p.get("b"), p.get("status"), p.get("rule"), p.get("reason")) for p in pairs]
if report.get("verdict") != "fail" or not pairs:
    sys.exit(f"verdict {report.get('verdict')}; pairs {brief}")
if not (report.get("fleet") or {}).get("on"):
    sys.exit(f"the fleet rule was not on: {report.get('fleet')}")
if any(p.get("status") != "slow" or p.get("rule") != "fleet+baseline"
       or not p.get("reason", "").startswith("baseline: ") for p in pairs):
    sys.exit(f"not every pair is slow by the baseline rule alone: {brief}")
if baseline.get("factor") != 3 or not any("lat send 2 B" in r for r in baseline.get("regressions", [])):
    sys.exit(f"the comparison does not name the fleet's latency at factor 3: {baseline}")
print(f"every pair slow by the baseline alone: {pairs[0].get('reason')}; "
      f"regressed: {baseline['regressions'][0]}")
PY
}

# validate_mtu_differs NODE NETDEV: NODE's fabric at MTU 600 (rxe 512, the others 1024). Its
# pairs run at 512 and pass with a warning; only its own check (expected 1024) fails the run.
validate_mtu_differs() {
  local node=$1 netdev=$2 reports="$LAB_LOGS/reports-mtu" status
  set_fabric_mtu "$node" "$netdev" 600 512 || return 1
  validate_play mtu "$reports" -e ibkit_validate_tests=lat
  status=$?
  set_fabric_mtu "$node" "$netdev" 1500 1024 || return 1
  [ "$status" -ne 0 ] || { echo "validate.yml passed with $node's port.mtu at 512"; return 1; }
  validate_judged "$(validate_run_dir "$reports")" mtu "$node"
}

[ "${VALIDATE_SOURCED:-0}" = 1 ] && return 0

lab_alone lab-validate
lab_step "validate.yml passes" validate_passes
lab_step "validate.yml: every node slowed alike fails against the last good run" \
  validate_fails_against_baseline
lab_alone_end
