#!/bin/bash
# Convergence of the lab by the roles: site.yml against inventory/lab converges, a second run
# reports changed=0 on every host, `--check --diff` reports no change, and `ibkit check` on
# every node then passes memlock and the kernel modules (the boot-time unit's report in
# /var/lib/ibkit/check.json too, where a boot has written one).
# Run alone it uses the lab that is up, or brings up its own 2-node lab and takes it down at
# the end. Sourced (CONVERGE_SOURCED=1) it only defines converge_steps, for tier.sh.
# Prints every step's time and ends with "N passed, N failed"; exit 0 only when all passed.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CONVERGE_INVENTORY=$REPO_DIR/inventory/lab
CONVERGE_BOOT_REPORT=/var/lib/ibkit/check.json

# converge_play NAME [ARGS...]: site.yml against the lab; the log is kept as
# $LAB_LOGS/play-NAME.log and its PLAY RECAP is printed (the step's last line is the recap's).
# Every run installs the same agent: the copy lib.sh makes once per run (build/agent/ibkit
# may be rebuilt while the runs go on, which would be a real change on the second run).
converge_play() {
  local name=$1 log="$LAB_LOGS/play-$1.log" status agent
  shift
  if ! { agent=$(lab_agent_copy) && [ -s "$agent" ] && "$agent" --version >/dev/null; }; then
    echo "no usable agent at $IBKIT_BIN: build it first (make build)"
    return 1
  fi
  lab_playbook mitogen -i "$CONVERGE_INVENTORY" playbooks/site.yml \
    -e "ibkit_agent_binary=$agent" "$@" >"$log" 2>&1
  status=$?
  sed -n '/^PLAY RECAP/,$p' "$log"
  [ "$status" -eq 0 ] || { echo "ansible-playbook exited $status (log $log)"; tail -n 30 "$log"; }
  return "$status"
}

# converge_recap_clean NAME [NODE]: every host in the recap of play NAME has changed=0,
# failed=0 and unreachable=0, and every lab node (or NODE alone) is in the recap.
converge_recap_clean() {
  local log="$LAB_LOGS/play-$1.log" nodes=${2:-}
  [ -n "$nodes" ] || nodes=$(lab_nodes | awk '{print $1}' | sort | tr '\n' ' ')
  sed -n '/^PLAY RECAP/,$p' "$log" | awk -v want="$nodes" '
    $2 == ":" {
      host = $1; seen[host] = 1
      for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      if (v["changed"] != 0 || v["failed"] != 0 || v["unreachable"] != 0) {
        printf "%s: changed=%s failed=%s unreachable=%s\n", host, v["changed"], v["failed"], v["unreachable"]
        bad = 1 }
      hosts++ }
    END {
      n = split(want, w, " ")
      for (i = 1; i <= n; i++) if (!(w[i] in seen)) { printf "%s missing from the recap\n", w[i]; bad = 1 }
      if (!hosts) { print "no PLAY RECAP"; exit 1 }
      if (bad) exit 1
      printf "changed=0 on all %d hosts\n", hosts }'
}

# converge_idempotent NAME [ARGS...]: play NAME runs and its recap is clean.
converge_idempotent() {
  local name=$1
  converge_play "$@" && converge_recap_clean "$name"
}

# converge_check_mode NODE: `--check --diff` on NODE reports no change. One node: the nodes are
# alike, the second run has just shown every one of them unchanged, and check mode's own paths
# (the probes, the templates' diffs) are the same on each; three took three times as long.
converge_check_mode() {
  converge_play check --check --diff --limit "$1" && converge_recap_clean check "$1"
}

# converge_check_node NODE: `ibkit check` in a fresh root session on NODE passes memlock and
# every module.loaded; so does the boot unit's report, where one exists.
converge_check_node() {
  local node=$1 json="$LAB_LOGS/converge-$1-check.json" boot="$LAB_LOGS/converge-$1-boot.json" status
  # The memlock role ran after labctl's shared connection logged in.
  lab_fresh_login "$node"
  lab_ibkit "$node" check --config "$GUEST_CONFIG" --format json >"$json"
  status=$?
  lab_check_ran "$status" || { echo "ibkit check exited $status"; return 1; }
  "$LABCTL" ssh "$node" "cat $CONVERGE_BOOT_REPORT 2>/dev/null" >"$boot"
  /usr/bin/python3 - "$json" "$boot" <<'PY'
import json, sys
def verdict(path, label):
    doc = json.load(open(path))
    rows = [r for r in doc.get("results", []) if r.get("id") in ("memlock", "module.loaded")]
    bad = [(r["id"], r.get("subject"), r.get("status"), r.get("observed")) for r in rows if r.get("status") != "pass"]
    if not any(r["id"] == "memlock" for r in rows) or not any(r["id"] == "module.loaded" for r in rows):
        return False, f"{label}: no memlock or module.loaded result ({[r['id'] for r in rows]})"
    if bad:
        return False, f"{label}: not passing: {bad}"
    mods = ", ".join(r["subject"] for r in rows if r["id"] == "module.loaded")
    return True, f"{label}: memlock and modules ({mods}) pass; verdict {doc.get('verdict')}"
ok, msg = verdict(sys.argv[1], "ibkit check")
print(msg)
try:
    has_boot = bool(open(sys.argv[2]).read().strip())
except OSError:
    has_boot = False
if has_boot:
    boot_ok, boot_msg = verdict(sys.argv[2], "boot report")
    print(boot_msg)
    ok = ok and boot_ok
else:
    print("boot report: none yet (ibkit-check.service runs at the next boot)")
sys.exit(0 if ok else 1)
PY
}

# converge_reboot_node NODE: NODE comes back from a reboot as the roles left it: the modules
# and the rxe link are there without anyone's help, a new login has unlimited memlock, and the
# boot unit ran this boot and its report passes, its loopback test included.
converge_reboot_node() {
  local node=$1 facts="$LAB_LOGS/reboot-$1-facts.txt" boot="$LAB_LOGS/reboot-$1-boot.json"
  "$LABCTL" reboot "$node" || return 1
  lab_fresh_login "$node"
  "$LABCTL" ssh "$node" sh -s -- "$CONVERGE_BOOT_REPORT" <"$LAB_DIR/boot-facts.sh" >"$facts" ||
    return 1
  "$LABCTL" ssh "$node" "cat $CONVERGE_BOOT_REPORT" >"$boot" || { echo "no $CONVERGE_BOOT_REPORT"; return 1; }
  /usr/bin/python3 - "$facts" "$boot" <<'PY'
import json, sys
facts = dict(line.rstrip("\n").split("=", 1) for line in open(sys.argv[1]) if "=" in line)
modules = set(facts.get("modules", "").split())
problems = [f"module {m} not loaded" for m in ("rdma_rxe", "ib_uverbs", "ib_umad", "ib_ipoib") if m not in modules]
if "rxe0/1:ACTIVE" not in facts.get("links", "").split():
    problems.append(f"rxe0/1 not ACTIVE (rdma link: {facts.get('links', '').strip() or 'none'})")
if facts.get("memlock") != "unlimited":
    problems.append(f"memlock in a new login is {facts.get('memlock')} KiB, not unlimited")
if int(facts.get("report", 0)) < int(facts.get("boot", 0)):
    problems.append("the boot report is older than this boot")
report = json.load(open(sys.argv[2]))
failed = [f"{r['id']} {r['subject']}: {r['observed']}" for r in report["results"] if r["status"] == "fail"]
if facts.get("timer") != "active":
    problems.append(f"ibkit-check.timer is {facts.get('timer')}, not active")
if report.get("verdict") != "pass" or facts.get("unit") != "success":
    problems.append(f"boot check unit {facts.get('unit')}, verdict {report.get('verdict')}: {failed}")
if problems:
    print("; ".join(problems))
    sys.exit(1)
governor = [r["status"] for r in report["results"] if r["id"].startswith("cpu")]
# inventory/lab sets ibkit_agent_loopback: the boot check proves the data path too.
loopback = {r["id"]: r["observed"] for r in report["results"]
            if r["id"] in ("loopback.latency", "loopback.bandwidth") and r["status"] == "pass"}
if len(loopback) != 2:
    print(f"the boot check ran no passing loopback test: {loopback}")
    sys.exit(1)
print(f"back from reboot: rdma_rxe, ib_uverbs, ib_umad, ib_ipoib loaded; rxe0/1 ACTIVE; "
      f"memlock unlimited; boot check {report['verdict']} ({len(report['results'])} results, "
      f"governor {'/'.join(governor) or 'n/a'}, loopback {loopback['loopback.latency']}, "
      f"{loopback['loopback.bandwidth']})")
PY
}

# converge_steps: the whole sequence against the lab that is up.
converge_steps() {
  local rows row name
  lab_step "site.yml converges" converge_play first
  lab_step "site.yml again: changed=0 on every host" converge_idempotent second
  mapfile -t rows < <(lab_nodes)
  read -r name _ <<<"${rows[0]}"
  lab_step "site.yml --check --diff on $name: changed=0" converge_check_mode "$name"
  for row in "${rows[@]}"; do
    read -r name _ <<<"$row"
    lab_step "$name: ibkit check passes memlock and modules" converge_check_node "$name"
  done
  lab_step "$name: reboot brings back modules, rxe, memlock and a passing boot check" \
    converge_reboot_node "$name"
}

[ "${CONVERGE_SOURCED:-0}" = 1 ] && return 0

lab_run_begin converge lab-converge
if "$LABCTL" status >/dev/null 2>&1; then
  echo "using the lab that is already up ($(lab_nodes | wc -l) nodes)"
else
  lab_run_up 2 || exit 1
fi
converge_steps
