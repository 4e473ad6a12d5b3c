#!/bin/bash
# What `make lab` runs once deps and the agent are built: bring up the virtual fabric
# (LAB_NODES, default 3), provision it with playbooks/site.yml (Soft-RoCE, modules, memlock,
# the agent and its config rendered from inventory/lab), validate it with playbooks/validate.yml
# (checks and an all-pairs sweep, one report under reports/<UTC time>/), and add each node's
# devices and check there. The lab stays up for you; `tests/lab/labctl down` ends it.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
CONVERGE_SOURCED=1 source "$(dirname "$0")/converge.sh"
VALIDATE_SOURCED=1 source "$(dirname "$0")/validate.sh"

NODES=${LAB_NODES:-3}

# verdict_of CHECK_JSON: "pass", or "fail (the failed check ids)".
verdict_of() {
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
failed = sorted({r["id"] for r in report["results"] if r["status"] == "fail"})
print(report["verdict"] + (f" ({', '.join(failed)})" if failed else ""))
PY
}

# node_report NODE DIR: devices.txt, check.json, check.xml (JUnit), check.txt from NODE.
node_report() {
  local node=$1 dir=$2 status
  mkdir -p "$dir"
  lab_fresh_login "$node"
  lab_ibkit "$node" devices >"$dir/devices.txt" || return 1
  lab_ibkit "$node" check --config "$GUEST_CONFIG" --format json >"$dir/check.json"
  status=$?
  lab_check_ran "$status" || { echo "ibkit check exited $status"; return 1; }
  lab_ibkit "$node" check --config "$GUEST_CONFIG" --format junit --output /tmp/check.xml \
    >"$dir/check.txt"
  lab_check_ran $? || return 1
  "$LABCTL" ssh "$node" cat /tmp/check.xml >"$dir/check.xml" || return 1
  echo "$node: check verdict $(verdict_of "$dir/check.json")"
}

main() {
  local start report rows row name
  start=$(date +%s)
  if "$LABCTL" status >/dev/null 2>&1; then
    echo "using the lab that is already up ($("$LABCTL" nodes | wc -l) nodes)"
  else
    lab_step "lab up ($NODES nodes)" "$LABCTL" up --nodes "$NODES" || return 1
  fi
  lab_step "site.yml provisions every node" converge_play site || return 1
  lab_step "validate.yml: every node checked, every pair swept" validate_play make-lab \
    "$REPO_DIR/reports"
  report=$(validate_run_dir "$REPO_DIR/reports")
  report=${report%/}
  [ -n "$report" ] || report="$REPO_DIR/reports/$(date -u +%Y%m%dT%H%M%SZ)"
  mapfile -t rows < <(lab_nodes)
  for row in "${rows[@]}"; do
    read -r name _ <<<"$row"
    lab_step "$name: ibkit devices + check" node_report "$name" "$report/$name"
  done
  cat <<MSG

make lab: $LAB_PASSED steps passed, $LAB_FAILED failed in $(($(date +%s) - start))s.
Report: ${report#"$REPO_DIR"/}/report.html (open it in a browser), summary.md, junit.xml,
        report.json, and <node>/{devices.txt,check.txt,check.json,check.xml}
The lab is still up. Go on with:
  tests/lab/labctl status                  the nodes and their SSH ports
  tests/lab/labctl ssh lab1                a root shell (ibkit is /usr/local/bin/ibkit)
  ansible -i inventory/lab/hosts.yml all -m ping
  tests/lab/labctl down                    stop every VM when you are done
MSG
  [ "$LAB_FAILED" -eq 0 ]
}

lab_init_logs make-lab
main
