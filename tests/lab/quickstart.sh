#!/bin/bash
# README.md's quick start ("the agent alone, on nodes you already have") as written, on the lab:
# quickstart-plan.py reads its block out of README.md, puts the lab's names in for its
# placeholders (nodeA, cn[01-16], salloc -N 16; a rule that no longer fits fails, naming the
# line) and says where each line runs; here each runs there, from a folder that holds make
# package's .deb, on nodes that look as if they never had ibkit (the roles' agent and its
# /etc/ibkit/ibkit.toml put aside, and back at the end). What the comments promise is checked:
# the package's ibkit is the one on PATH, `ibkit devices` shows every device and port state
# ibv_devinfo shows, `ibkit check` exits 0, the key is 0600 on both nodes, the server stays up
# through the pair and Ctrl-C (SIGINT) stops it, the pair passes with the tests its comment
# names, each sweep passes and leaves report.html, summary.json, junit.xml and report.json in
# report/, and `ls report/` lists the files its comment names. The salloc line runs in an
# allocation of the quick start's nodes (slurm.sh's slurmctld and slurmd, started for it and
# stopped after).
# The quick start's cluster is the lab's first QUICKSTART_NODES nodes: 2 by default, for time.
# On the emulated lab each sweep with its defaults took 18 s on 2 nodes and 42 s on 3 (three
# rounds), the whole step 80 s and 144 s.
# Sourced (QUICKSTART_SOURCED=1) it only defines quickstart_runs, for tier.sh; run alone it runs
# it against the lab that is up (QUICKSTART_README=FILE tries another README).
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# package_deb: make package's .deb.
PACKAGE_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/package.sh"
# slurm_start, slurm_stop; launch_ssh_trust (launch.sh, which slurm.sh sources).
SLURM_SOURCED=1 source "$(dirname "${BASH_SOURCE[0]}")/slurm.sh"

QUICKSTART_NODES=${QUICKSTART_NODES:-2}
QUICKSTART_README=${QUICKSTART_README:-$REPO_DIR/README.md}
QUICKSTART_DIR=/root/quickstart        # where every line runs: the .deb is there, report/ lands there
QUICKSTART_ASIDE=/root/quickstart-aside  # the roles' agent and config while the quick start runs
QUICKSTART_MARK=/tmp/quickstart-mark     # touched before each sweep: its report must be newer
QUICKSTART_SERVE_PID=/tmp/quickstart-serve.pid
QUICKSTART_LINE_TIMEOUT=${QUICKSTART_LINE_TIMEOUT:-300}
# What every sweep must leave in its --output folder (README: where the report is).
QUICKSTART_REPORT_FILES="report.html summary.json junit.xml report.json"

# quickstart_each FUNC NODES...: FUNC NODE on every node at once; prints each node's output in
# turn; fails when any did.
quickstart_each() {
  local func=$1 node status=0 out="$LAB_LOGS/quickstart-each" jobs=()
  shift
  for node in "$@"; do
    { "$func" "$node" >"$out.$node" 2>&1; echo $? >"$out.$node.status"; } &
    jobs+=($!)
  done
  # These alone: a server of the quick start runs in the background meanwhile.
  wait "${jobs[@]}"
  for node in "$@"; do
    sed "s/^/$node: /" "$out.$node"
    [ "$(cat "$out.$node.status")" = 0 ] || status=1
  done
  return "$status"
}

# quickstart_prepare NODE: NODE as one that never had ibkit: no package of it, the roles' agent
# and /etc/ibkit/ibkit.toml put aside (a conffile already there would stop apt at dpkg's prompt),
# no key left from an earlier run; a fresh folder with make package's .deb in it; a new login
# (limits as the memlock role set them). No ibkit on PATH afterwards.
quickstart_prepare() {
  local node=$1 file
  if "$LABCTL" ssh "$node" "test -d $QUICKSTART_ASIDE"; then
    echo "$node: what an interrupted quick start left, put back first"
    quickstart_restore "$node" || return 1
  fi
  if "$LABCTL" ssh "$node" "dpkg-query -W -f='\${Status}' ibkit 2>/dev/null | grep -q ' installed'"; then
    echo "ibkit's package is installed on $node already: the quick start wants a node without it"
    return 1
  fi
  for file in $GUEST_IBKIT $GUEST_CONFIG; do
    "$LABCTL" ssh "$node" "mkdir -p $QUICKSTART_ASIDE && { ! test -e $file || mv -f $file $QUICKSTART_ASIDE/; }" || return 1
  done
  "$LABCTL" ssh "$node" "rm -rf $QUICKSTART_DIR $QS_KEY && mkdir -p $QUICKSTART_DIR" &&
    "$LABCTL" push "$node" "$PACKAGE_DEB" "$QUICKSTART_DIR/$(basename "$PACKAGE_DEB")" &&
    lab_fresh_login "$node" || return 1
  if "$LABCTL" ssh "$node" "command -v ibkit"; then
    echo "ibkit is still on PATH on $node"
    return 1
  fi
  echo "no ibkit; $(basename "$PACKAGE_DEB") in $QUICKSTART_DIR"
}

# quickstart_restore NODE: NODE as the roles left it: the package purged, the roles' agent and
# config back, the quick start's folder and key gone.
quickstart_restore() {
  local node=$1 file
  "$LABCTL" ssh "$node" "dpkg -P ibkit >/dev/null 2>&1; rm -rf $QUICKSTART_DIR $QS_KEY $QUICKSTART_MARK $QUICKSTART_SERVE_PID" || return 1
  for file in $GUEST_IBKIT $GUEST_CONFIG; do
    "$LABCTL" ssh "$node" "! test -e $QUICKSTART_ASIDE/${file##*/} ||
      { mkdir -p ${file%/*} && mv -f $QUICKSTART_ASIDE/${file##*/} $file; }" || return 1
  done
  "$LABCTL" ssh "$node" "rmdir $QUICKSTART_ASIDE 2>/dev/null; test -x $GUEST_IBKIT && ! test -e /usr/bin/ibkit" &&
    echo "the roles' $GUEST_IBKIT back, the package gone"
}

# quickstart_on NODE: the current line (QS_COMMAND) on NODE, from the quick start's folder; a
# line still running after QUICKSTART_LINE_TIMEOUT seconds (an allocation that never comes) fails.
quickstart_on() {
  timeout -k 10 "$QUICKSTART_LINE_TIMEOUT" "$LABCTL" ssh "$1" "cd $QUICKSTART_DIR && $QS_COMMAND"
}

# quickstart_devices_agree NODE OUTPUT: the devices and port states of `ibkit devices` (OUTPUT)
# are the ones ibv_devinfo shows on NODE.
quickstart_devices_agree() {
  local ours theirs
  ours=$(awk "/^CA '/ { gsub(/'/, \"\", \$2); ca = \$2 }
    /^ +port [0-9]+: / { sub(/:/, \"\", \$2); split(\$3, s, \"/\"); print ca \"/\" \$2, s[1] }" "$2" | sort)
  theirs=$("$LABCTL" ssh "$1" ibv_devinfo | awk '/^hca_id:/ { ca = $2 } /^[ \t]+port:/ { port = $2 }
    /^[ \t]+state:/ { sub(/^PORT_/, "", $2); print ca "/" port, $2 }' | sort)
  if [ -z "$theirs" ] || [ "$ours" != "$theirs" ]; then
    echo "ibkit devices shows [${ours//$'\n'/, }], ibv_devinfo [${theirs//$'\n'/, }]"
    return 1
  fi
  echo "${ours//$'\n'/, }, as ibv_devinfo shows"
}

# quickstart_expect NODE OUTPUT STATUS: what the current line (QS_KIND, QS_ARG) promises, on
# NODE, whose run printed OUTPUT (a file) and exited STATUS.
quickstart_expect() {
  local node=$1 output=$2 status=$3 seen wanted word file other
  if [ "$status" -ne 0 ]; then
    echo "exited $status"
    return 1
  fi
  case $QS_KIND in
    install)
      seen=$("$LABCTL" ssh "$node" "command -v ibkit && ibkit --version")
      wanted=$("$REPO_DIR/$PACKAGE_BUILD_DIR/agent/ibkit" --version)
      [ "$seen" = "/usr/bin/ibkit"$'\n'"$wanted" ] ||
        { echo "ibkit on PATH is not the package's $wanted: ${seen//$'\n'/ }"; return 1; }
      echo "${seen//$'\n'/: }" ;;
    devices) quickstart_devices_agree "$node" "$output" ;;
    key)
      other=$QS_B
      [ "$node" = "$QS_B" ] && other=$QS_A
      lab_copy_secret "$node" "$QS_ARG" "$other" || { echo "could not copy $QS_ARG to $other"; return 1; }
      for node in "$node" "$other"; do
        seen=$("$LABCTL" ssh "$node" "stat -c %a $QS_ARG && wc -c <$QS_ARG")
        [ "$seen" = "600"$'\n'"65" ] || { echo "$node: $QS_ARG is not 0600 with 64 hex digits: ${seen//$'\n'/ }"; return 1; }
      done
      echo "$QS_ARG 0600 on $QS_A and $QS_B" ;;
    pair)
      tail -n 1 "$output" | grep -q '^PASS' || { echo "the pair did not print PASS"; return 1; }
      for word in ${QS_ARG//,/ }; do
        [ "$word" = - ] && continue
        grep -qi "^ *$word" "$output" || { echo "the comment promises $word; the pair printed none"; return 1; }
      done
      echo "PASS, its ${QS_ARG//,/, } shown" ;;
    sweep)
      for file in $QUICKSTART_REPORT_FILES; do
        "$LABCTL" ssh "$node" "cd $QUICKSTART_DIR && test -n \"\$(find $QS_ARG/$file -newer $QUICKSTART_MARK 2>/dev/null)\"" ||
          { echo "no new $QS_ARG/$file"; return 1; }
      done
      seen=$("$LABCTL" ssh "$node" "cat $QUICKSTART_DIR/$QS_ARG/summary.json" |
        /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin).get("verdict"))')
      [ "$seen" = pass ] || { echo "summary.json's verdict is $seen"; return 1; }
      echo "verdict pass; $QUICKSTART_REPORT_FILES new in $QS_ARG/" ;;
    ls)
      for file in ${QS_ARG//,/ }; do
        grep -qw -- "$file" "$output" || { echo "the comment names $file; ls does not show it"; return 1; }
      done
      echo "lists ${QS_ARG//,/, }" ;;
    *) echo "exit 0" ;;
  esac
}

# quickstart_serve_start NODE: the current line, a server, on NODE in the background, its pid
# kept there for Ctrl-C; up once it says it listens (30 s at most).
quickstart_serve_start() {
  local node=$1 deadline=$(($(date +%s) + 30))
  QS_SERVE_LOG="$LAB_LOGS/quickstart-serve.log"
  : >"$QS_SERVE_LOG"
  # exec: the shell's pid becomes the server's.
  "$LABCTL" ssh "$node" "cd $QUICKSTART_DIR && echo \$\$ >$QUICKSTART_SERVE_PID && exec $QS_COMMAND" \
    >"$QS_SERVE_LOG" 2>&1 &
  QS_SERVE_JOB=$! QS_SERVE_NODE=$node QS_SERVE_LINE=$QS_LINE
  until grep -q listening "$QS_SERVE_LOG"; do
    if ! kill -0 "$QS_SERVE_JOB" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      echo "README.md:$QS_LINE on $node: the server did not listen within 30 s:"
      cat "$QS_SERVE_LOG"
      return 1
    fi
    sleep 0.5
  done
  sed 's/^/  | /' "$QS_SERVE_LOG"
}

# quickstart_serve_stop: the server of the paragraph that ends stayed up, and Ctrl-C (SIGINT to
# it) stops it within 15 s with exit status 0.
quickstart_serve_stop() {
  [ -n "$QS_SERVE_JOB" ] || return 0
  local job=$QS_SERVE_JOB node=$QS_SERVE_NODE deadline=$(($(date +%s) + 15)) status
  QS_SERVE_JOB=''
  if ! kill -0 "$job" 2>/dev/null; then
    wait "$job"
    echo "README.md:$QS_SERVE_LINE on $node: the server did not stay up (exit $?):"
    sed 's/^/  | /' "$QS_SERVE_LOG"
    return 1
  fi
  "$LABCTL" ssh "$node" "kill -INT \$(cat $QUICKSTART_SERVE_PID)" || return 1
  while kill -0 "$job" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      "$LABCTL" ssh "$node" "kill -KILL \$(cat $QUICKSTART_SERVE_PID)"
      wait "$job"
      echo "README.md:$QS_SERVE_LINE on $node: Ctrl-C did not stop the server within 15 s"
      return 1
    fi
    sleep 0.5
  done
  wait "$job"
  status=$?
  echo "README.md:$QS_SERVE_LINE on $node: stayed up; Ctrl-C stopped it, exit $status"
  sed 's/^/  | /' "$QS_SERVE_LOG"
  [ "$status" -eq 0 ]
}

# quickstart_slurm_up: slurm.sh's slurmctld (on node A) and slurmd on the quick start's nodes
# alone, so that an allocation of all of them is theirs; once a run.
quickstart_slurm_up() {
  [ -n "$QS_SLURM_UP" ] && return 0
  SLURM_ROWS=("${QS_ROWS[@]}")
  read -r SLURM_CONTROLLER SLURM_CONTROLLER_ADDRESS _ <<<"${SLURM_ROWS[0]}"
  QS_SLURM_UP=1
  slurm_start | paste -sd ' ' | sed "s/^/slurmctld on $SLURM_CONTROLLER: /"
}

# quickstart_line STEP: one line of the plan (quickstart-plan.py's tab-separated fields) where it
# runs, and what its comment promises.
quickstart_line() {
  local paragraph place nodes node status=0 out="$LAB_LOGS/quickstart-line" start
  start=$(date +%s)
  IFS=$'\t' read -r QS_LINE paragraph place QS_KIND QS_ARG QS_COMMAND <<<"$1"
  # A server runs until its paragraph ends.
  [ "$paragraph" = "$QS_PARAGRAPH" ] || quickstart_serve_stop || return 1
  QS_PARAGRAPH=$paragraph
  case $place in
    every) nodes=("${QS_NODES[@]}") ;;
    A) nodes=("$QS_A") ;;
    B) nodes=("$QS_B") ;;
    *) echo "README.md:$QS_LINE: no place '$place'"; return 1 ;;
  esac
  echo "README.md:$QS_LINE on ${nodes[*]}: $QS_COMMAND"
  if [ "$QS_KIND" = serve ]; then
    quickstart_serve_start "${nodes[0]}"
    return
  fi
  if [[ "$QS_COMMAND" =~ ^(salloc|srun|sbatch)\  ]]; then
    quickstart_slurm_up || { echo "README.md:$QS_LINE: Slurm did not come up"; return 1; }
  fi
  [ "$QS_KIND" != sweep ] || "$LABCTL" ssh "${nodes[0]}" "touch $QUICKSTART_MARK" || return 1
  quickstart_each quickstart_on "${nodes[@]}" >/dev/null
  for node in "${nodes[@]}"; do
    sed 's/^/  | /' "$LAB_LOGS/quickstart-each.$node"
    cp "$LAB_LOGS/quickstart-each.$node" "$out.$QS_LINE.$node"
    if ! quickstart_expect "$node" "$out.$QS_LINE.$node" "$(cat "$LAB_LOGS/quickstart-each.$node.status")" \
      >"$out.verdict" 2>&1; then
      echo "README.md:$QS_LINE on $node: $QS_COMMAND: $(paste -sd ' ' "$out.verdict")"
      status=1
    else
      echo "  $node: $(paste -sd ' ' "$out.verdict")"
    fi
  done
  echo "  ($(($(date +%s) - start)) s)"
  return "$status"
}

# quickstart_runs: README.md's quick start on the lab's first QUICKSTART_NODES nodes, then the
# nodes as they were.
quickstart_runs() {
  local row name names=() plan steps step status=0
  mapfile -t QS_ROWS < <(lab_nodes | head -n "$QUICKSTART_NODES")
  for row in "${QS_ROWS[@]}"; do
    read -r name _ <<<"$row"
    names+=("$name")
  done
  [ "${#names[@]}" -ge 2 ] || { echo "the quick start needs 2 lab nodes; the lab has ${#names[@]}"; return 1; }
  QS_NODES=("${names[@]}") QS_A=${names[0]} QS_B=${names[1]}
  QS_SERVE_JOB='' QS_SLURM_UP='' QS_PARAGRAPH=''
  plan=$("$LAB_DIR/quickstart-plan.py" "$QUICKSTART_README" --names "$(IFS=,; echo "${names[*]}")") || return 1
  mapfile -t steps <<<"$plan"
  # The key's path (~/ibkit.key), removed before and after.
  QS_KEY=$(printf '%s\n' "${steps[@]}" | awk -F'\t' '$4 == "key" { print $5; exit }')
  package_deb || return 1
  # The sweep over ssh: node A logs in to every node as root, as an admin's own ssh setup does.
  launch_ssh_trust "$QS_A" "${names[@]}" || return 1
  if quickstart_each quickstart_prepare "${names[@]}"; then
    for step in "${steps[@]}"; do
      quickstart_line "$step" || { status=1; break; }
    done
    quickstart_serve_stop || status=1
  else
    status=1
  fi
  # Whatever happened: nothing of the quick start left running or installed.
  if [ -n "$QS_SERVE_JOB" ]; then
    "$LABCTL" ssh "$QS_SERVE_NODE" "kill -KILL \$(cat $QUICKSTART_SERVE_PID)"
    wait "$QS_SERVE_JOB"
  fi
  [ -z "$QS_SLURM_UP" ] || slurm_stop
  quickstart_each quickstart_restore "${names[@]}" || status=1
  [ "$status" -eq 0 ] && echo "README.md's quick start ran as written on ${names[*]}"
}

[ "${QUICKSTART_SOURCED:-0}" = 1 ] && return 0

lab_alone lab-quickstart
lab_step "README.md's quick start as written: package, devices, check, key, serve + pair, sweeps, report/" \
  quickstart_runs
lab_alone_end
