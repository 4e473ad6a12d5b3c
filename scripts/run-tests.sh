#!/usr/bin/env bash
# Runs every test tier that exists, prints each tier's duration, and ends with one summary
# line. A tier that fails does not stop the others; the exit status is 1 if any failed.
# The unit tier is the lints (shellcheck, clang-format) and the unit tests, which run once, on
# the instrumented build (tests/sanitize/run.sh ctest).
#   scripts/run-tests.sh [TIER...]   only those tiers (make sanitize, make fuzz); all by default
# SKIP_TIERS="lab ansible" leaves tiers out (never in CI).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}

# The unit tier: the lints, the layering of agent/src, its tests' folder tags, where its heavy
# headers may go, the benches' calls, programs and tiny runs of two, README.md's layout and
# synopsis, the sample outputs of README.md and the docs, that the lab can still run README.md's
# quick start, docs/variables.md against the roles' specs, the Prometheus alert rules' promtool
# tests, then the agent's unit tests under ASan+UBSan (build-asan) and the plain agent's
# portability; fails when any of them does.
tier_unit() {
  local status=0
  lint_shell || status=1
  lint_cpp || status=1
  python3 scripts/check-layers.py || status=1
  python3 scripts/check-test-tags.py || status=1
  python3 scripts/check-heavy-includes.py || status=1
  python3 scripts/check-bench-scripts.py || status=1
  python3 scripts/check-bench-scripts.py --plant || status=1
  bench_tiny_run || status=1
  python3 scripts/check-layout.py || status=1
  python3 scripts/check-synopsis.py "$build_dir/agent/ibkit" || status=1
  python3 scripts/doc-samples.py "$build_dir/agent/ibkit" --check README.md docs/azure.md || status=1
  # The lab tier runs README.md's quick start as written: its placeholders must still be the
  # ones the lab puts its names in for, found here in a second rather than there.
  python3 tests/lab/quickstart-plan.py README.md --check || status=1
  # Debian's python3, which has python3-yaml (install-deps.sh build), whatever is first on PATH.
  /usr/bin/python3 scripts/variables-doc.py --check && echo "variables-doc: docs/variables.md is what the specs give" || status=1
  # promtool from Debian's prometheus package, unpacked into ~/.cache (seconds once there).
  tests/metrics/rules.sh || status=1
  tests/sanitize/run.sh ctest || status=1
  # What only the shipped build can say (an instrumented one needs libasan): the agent starts on
  # Azure's HPC images. ctest's other entries in this build need the tests built (make build).
  ctest --test-dir "$build_dir" -R '^portability\.' --no-tests=error --output-on-failure || status=1
  return $status
}

# The benches' programs are built only when asked (EXCLUDE_FROM_ALL) and their scripts run by
# hand, so nothing else notices when a change breaks one: build them, and run the two benches that
# need neither a lab nor root on a few nodes (a row each, as their tables print).
bench_tiny_run() {
  local out
  if ! out=$(ninja -C "$build_dir" ibkit_fleet_bench ibkit_report_bench 2>&1); then
    echo "$out" | tail -n 20
    echo "bench programs: ninja -C $build_dir ibkit_fleet_bench ibkit_report_bench failed"
    return 1
  fi
  out=$(BUILD_DIR=$build_dir timeout 120 bench/schedule-scale.sh 8 2>&1)
  if [ "$(grep -c '^ *8 ' <<<"$out")" -ne 6 ]; then
    echo "bench/schedule-scale.sh 8: not a row for each of its 6 patterns; it printed:"; echo "$out"
    return 1
  fi
  out=$(BUILD_DIR=$build_dir timeout 120 bench/report-scale.sh 4 2>&1)
  if [ "$(grep -c '^ *4 ' <<<"$out")" -ne 1 ]; then
    echo "bench/report-scale.sh 4: no row for 4 nodes; it printed:"; echo "$out"
    return 1
  fi
  echo "benches: their programs build; schedule-scale.sh 8 and report-scale.sh 4 ran"
}

# The shell scripts git tracks: every *.sh (sourced libraries too), and every other file whose
# first line runs sh or bash. git grep looks at the tracked text files in one process.
shell_scripts() {
  local file first shebang='^#![[:space:]]*(/[^[:space:]]*/)?(env[[:space:]]+)?(ba|da)?sh([[:space:]]|$)'
  { git ls-files '*.sh'; git grep -lIE '^#!' -- ':!*.sh'; } | while IFS= read -r file; do
    [ -f "$file" ] || continue
    first=$(head -n 1 "$file")
    [[ "$file" == *.sh || "$first" =~ $shebang ]] && echo "$file"
  done | sort -u
}

lint_shell() {
  local scripts
  mapfile -t scripts < <(shell_scripts)
  if ! command -v shellcheck >/dev/null; then
    echo "shellcheck: not installed (scripts/install-deps.sh build)"; return 1
  fi
  if [ ${#scripts[@]} -eq 0 ]; then echo "shellcheck: git lists no shell script here"; return 1; fi
  if shellcheck -x "${scripts[@]}"; then
    echo "shellcheck: ${#scripts[@]} scripts, no findings"
  else
    echo "shellcheck: findings above, in ${#scripts[@]} scripts checked"; return 1
  fi
}

lint_cpp() {
  local sources out unformatted
  mapfile -t sources < <(git ls-files '*.cpp' '*.hpp')
  if ! command -v clang-format >/dev/null; then
    echo "clang-format: not installed (scripts/install-deps.sh build)"; return 1
  fi
  if [ ${#sources[@]} -eq 0 ]; then echo "clang-format: git lists no C++ file here"; return 1; fi
  if out=$(clang-format --dry-run --Werror "${sources[@]}" 2>&1); then
    echo "clang-format: ${#sources[@]} files, all formatted"
  else
    echo "$out" | head -n 40
    unformatted=$(echo "$out" | grep -oE '^[^:]+:[0-9]+:[0-9]+: error' | cut -d: -f1 | sort -u | wc -l)
    echo "clang-format: $unformatted of ${#sources[@]} files not formatted (make format)"; return 1
  fi
}

tier_ansible() { tests/ansible/run.sh; }
tier_host() { tests/host/run.sh; }
tier_subnet() { tests/subnet/run.sh; }
tier_sanitize() { tests/sanitize/run.sh host; }
tier_fuzz() { fuzz/run.sh; }
tier_lab() { tests/lab/tier.sh; }

available=(unit)
[ -x tests/ansible/run.sh ] && available+=(ansible)
[ -x tests/host/run.sh ] && available+=(host)
[ -x tests/subnet/run.sh ] && available+=(subnet)
[ -x tests/sanitize/run.sh ] && available+=(sanitize)
[ -x fuzz/run.sh ] && available+=(fuzz)
[ -x tests/lab/tier.sh ] && available+=(lab)
if [ $# -gt 0 ]; then
  for tier in "$@"; do
    [[ " ${available[*]} " == *" $tier "* ]] || { echo "run-tests.sh: no tier '$tier' (${available[*]})"; exit 2; }
  done
  available=("$@")
fi

passed=0
failed=0
summary=()
for tier in "${available[@]}"; do
  if [[ " ${SKIP_TIERS:-} " == *" $tier "* ]]; then
    if [ -n "${CI:-}" ]; then echo "SKIP_TIERS is ignored in CI"; else summary+=("$tier: skipped"); continue; fi
  fi
  echo "=== tier $tier ==="
  start=$(date +%s)
  "tier_$tier"
  status=$?
  seconds=$(( $(date +%s) - start ))
  if [ $status -eq 0 ]; then passed=$((passed + 1)); word=passed; else failed=$((failed + 1)); word=FAILED; fi
  summary+=("$tier: $word in ${seconds}s")
  echo "=== tier $tier $word in ${seconds}s ==="
done

echo
echo "Test tiers:"
for line in "${summary[@]}"; do echo "  $line"; done
echo "tiers: $passed passed, $failed failed"
[ $failed -eq 0 ]
