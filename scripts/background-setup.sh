#!/usr/bin/env bash
# What make test needs after the compiler, set up while the agent compiles: the test tiers'
# Debian packages (scripts/install-deps.sh), then the lab's image (tests/lab/labctl image).
# apt and debootstrap wait on the network and the disk, the compile on two cores: on a cold
# machine they overlap instead of taking turns. Nothing to do takes a second.
#   scripts/background-setup.sh start GROUP...  starts it; its output goes to $BUILD_DIR/background-setup.log
#   scripts/background-setup.sh wait            waits (at most 40 minutes), prints that output,
#                                               fails when the packages did not install
# An image that failed to build is only reported here: the lab tier builds it again and fails
# with the reason.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}
log=$build_dir/background-setup.log
status_file=$build_dir/background-setup.status
pid_file=$build_dir/background-setup.pid
wait_limit=${BACKGROUND_SETUP_WAIT:-2400}

run() {
  local began
  began=$(date +%s)
  if scripts/install-deps.sh "$@"; then
    echo "packages ready in $(($(date +%s) - began))s"
    tests/lab/labctl image || echo "the lab image did not build here; the lab tier tries again"
    echo "background setup done in $(($(date +%s) - began))s"
    echo 0 >"$status_file"
  else
    echo "scripts/install-deps.sh $* failed"
    echo 1 >"$status_file"
  fi
}

# In a session of its own, so that a wait that gives up stops apt and debootstrap too.
start() {
  [ $# -gt 0 ] || { echo "usage: $0 start GROUP..." >&2; exit 2; }
  mkdir -p "$build_dir"
  rm -f "$status_file"
  setsid "$0" run "$@" </dev/null >"$log" 2>&1 &
  echo $! >"$pid_file"
  echo "packages for the test tiers and the lab image: being set up meanwhile (log: $log)"
}

wait_for() {
  local waited=0 pid
  pid=$(cat "$pid_file" 2>/dev/null)
  while [ ! -s "$status_file" ]; do
    if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
      sleep 1
      [ -s "$status_file" ] && break
      echo "background setup ended without a result (log: $log)"
      cat "$log" 2>/dev/null
      return 1
    fi
    if [ "$waited" -ge "$wait_limit" ]; then
      echo "background setup still running after ${wait_limit}s (log: $log); stopping it"
      kill -- "-$pid" 2>/dev/null
      cat "$log"
      return 1
    fi
    sleep 2
    waited=$((waited + 2))
  done
  cat "$log"
  [ "$(cat "$status_file")" = 0 ]
}

case ${1:-} in
  start) shift; start "$@" ;;
  run) shift; run "$@" ;;
  wait) wait_for ;;
  *) echo "usage: $0 start GROUP... | wait" >&2; exit 2 ;;
esac
