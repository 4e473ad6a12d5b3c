# shellcheck shell=bash
# Sourced by the host tier's scripts, from the repository's top: the agent they test, what the
# machine must have, and the bookkeeping of their cases.
#   BUILD_DIR=build   where agent/ibkit was built

build_dir=${BUILD_DIR:-build}
ibkit=$(realpath -m "$build_dir/agent/ibkit")

# host_require_agent NAME: exits with a line saying how to build it when the agent is missing.
host_require_agent() {
  if [ ! -x "$ibkit" ]; then
    echo "$1: $ibkit is not built (cmake -S . -B $build_dir -G Ninja && ninja -C $build_dir)"
    exit 1
  fi
}

# host_require_namespaces NAME: exits unless this is root with iproute2 and python3.
host_require_namespaces() {
  if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v python3 >/dev/null; then
    echo "$1: needs root, iproute2 and python3 (scripts/install-deps.sh host)"
    exit 1
  fi
}

# write_keys DIR: DIR/key, the run's key, and DIR/wrong.key, another; each 64 hex digits, 0600
# (ibkit refuses a key of fewer than 32 bytes).
write_keys() {
  local file
  for file in "$1/key" "$1/wrong.key"; do
    (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$file")
  done
}

# Cases: run_cases calls each named function as a case, which ends with pass NAME or
# fail NAME WHY (each prints the case's time); cases_summary prints the counts last.
passed=0
failed=0
case_start=
now() { date +%s.%N; }
# elapsed START [DIGITS]: the seconds since START (a `now`), with DIGITS decimals (1).
elapsed() { awk -v a="$1" -v b="$(now)" -v format="%.${2:-1}f" 'BEGIN { printf format, b - a }'; }
pass() { passed=$((passed + 1)); echo "PASS  $1 ($(elapsed "$case_start") s)"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1: $2 ($(elapsed "$case_start") s)"; }
run_cases() {
  local case
  for case in "$@"; do
    case_start=$(now)
    "$case"
  done
}
# cases_summary: "N passed, N failed"; false when a case failed.
cases_summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# wait_for_text FILE TEXT SECONDS: waits up to SECONDS for FILE to hold TEXT (a fixed
# string); 0 when it does.
wait_for_text() {
  local end=$(($(date +%s) + $3))
  while [ "$(date +%s)" -le "$end" ]; do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# indent N: stdin with N spaces before every line (6 under a case's PASS/FAIL line).
indent() { sed "s/^/$(printf '%*s' "$1" '')/"; }

# json_field EXPR: the Python subscript EXPR (e.g. '["tests"][0]') of the JSON on stdin.
json_field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read())$1)"; }
