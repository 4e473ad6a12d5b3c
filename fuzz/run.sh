#!/usr/bin/env bash
# The fuzz tier: builds the libFuzzer targets (clang-14, ASan+UBSan) into build-asan, the build
# the sanitize tier shares (scripts/instrumented-build.sh), replays
# every regression input of every target, then fuzzes each target for a bounded time. Prints
# per target the runs executed, the time, exec/s and the new crashes; fails when a target does
# not build, has no seed corpus, a regression input crashes, or fuzzing finds a new crash.
#   fuzz/run.sh [TARGET...]       all targets (fuzz/*_fuzz.cpp) by default
#   FUZZ_SECONDS=18               fuzzing time per target
#   FUZZ_JOBS=$(nproc)            targets fuzzed at once, one core each
#   ASAN_BUILD_DIR=build-asan     where the targets are built (shared with the sanitize tier)
# Inputs under fuzz/known-crashes/TARGET/ are crashes already reported and not yet fixed: the
# tier replays them only to learn their signature, and a rediscovered one is reported as known
# instead of failing the tier. See fuzz/README.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds_each=${FUZZ_SECONDS:-18}
build_dir=${ASAN_BUILD_DIR:-build-asan}
work="$build_dir/fuzz-run"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The targets: every fuzz/NAME_fuzz.cpp, or those named on the command line.
targets=()
if [ $# -gt 0 ]; then
  targets=("$@")
else
  for source in fuzz/*_fuzz.cpp; do
    name=${source#fuzz/}
    targets+=("${name%_fuzz.cpp}")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then echo "fuzz: no targets (fuzz/*_fuzz.cpp)"; exit 1; fi

# The targets, in the build the sanitize tier shares (scripts/instrumented-build.sh).
build() {
  local binaries=()
  for target in "${targets[@]}"; do binaries+=("${target}_fuzz"); done
  ASAN_BUILD_DIR=$build_dir scripts/instrumented-build.sh "${binaries[@]}"
}

# The dictionary of a target: its own or its family's, with the boundary numbers every target
# gets.
dictionary() {
  local family=$1
  case $1 in
    report_json | peer_message | counter_state) family=json ;;
    sysfs_*) family=sysfs ;;
    topology) family=fabric_record ;;
  esac
  cat "fuzz/dict/numbers.dict" "fuzz/dict/$family.dict" 2>/dev/null >"$work/$1.dict"
  echo "$work/$1.dict"
}

# The sanitizer's verdict in a log: "KIND FILE:LINE", without columns or addresses; a stack
# overflow by its kind and file alone (which frame runs out of stack varies).
signature() {
  local summary
  summary=$(grep -m1 -E '^SUMMARY: |^==[0-9]+== ERROR: libFuzzer|^ibkit fuzz: ' "$1")
  case $summary in
    *stack-overflow*) echo "stack-overflow $(echo "$summary" | grep -oE '[^ ]+\.(cpp|hpp|h|inl|tcc)' | head -n1)" ;;
    "SUMMARY: "*) echo "$summary" | sed -E 's/^SUMMARY: [A-Za-z]+: //; s/ in .*//; s/(:[0-9]+):[0-9]+/\1/; s/\(0x[0-9a-f]+\)//g' ;;
    *) echo "$summary" | sed -E 's/^==[0-9]+== //' ;;
  esac
}

# Runs the target on one input file; the log is kept in $2. 0 when it does not crash.
replay() { "$binary" -timeout=10 "$1" >"$2" 2>&1; }

# Prints an input so that a CI log alone is enough to reproduce it.
show_input() {
  local size
  size=$(stat -c %s "$1")
  if [ "$size" -le 4096 ]; then
    echo "      input ($size bytes, base64): $(base64 -w0 "$1")"
  else
    echo "      input: $size bytes, too long to print"
  fi
}

fuzz_target() {
  local target=$1 failed=0
  binary="$build_dir/fuzz/${target}_fuzz"
  local seeds="fuzz/corpus/$target" regressions="fuzz/regressions/$target" known="fuzz/known-crashes/$target"
  local crashes="$work/crashes/$target" corpus="$work/corpus/$target"
  mkdir -p "$crashes" "$corpus" "$work/logs/$target"
  if [ ! -x "$binary" ]; then echo "FAIL  $target: $binary was not built"; return 1; fi
  if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then echo "FAIL  $target: no seed corpus in $seeds"; return 1; fi

  # Known crashes: their signatures (and a note when one no longer crashes).
  local known_signatures=() file log
  for file in "$known"/*; do
    [ -f "$file" ] || continue
    log="$work/logs/$target/known-$(basename "$file").log"
    if replay "$file" "$log"; then
      echo "      note: $file no longer crashes: move it to $regressions/"
    else
      known_signatures+=("$(signature "$log")")
    fi
  done

  # Regression inputs: every one must run clean.
  local replayed=0
  for file in "$regressions"/*; do
    [ -f "$file" ] || continue
    replayed=$((replayed + 1))
    log="$work/logs/$target/regression-$(basename "$file").log"
    if ! replay "$file" "$log"; then
      echo "      regression $file crashes: $(signature "$log")"
      grep -E -A12 '^==[0-9]+==ERROR|runtime error|^ibkit fuzz: ' "$log" | head -n 16 | sed 's/^/        /'
      failed=1
    fi
  done

  # Fuzzing, for $seconds_each in all: a run that stops on a known crash starts again with the
  # time left (its new inputs kept), one that stops on a new crash ends the target.
  local start runs=0 new_crashes=0 known_hits=0 attempt=0 left stats status sig
  local dict inputs=("$corpus" "$seeds")
  dict=$(dictionary "$target")
  [ -d "$regressions" ] && inputs+=("$regressions")
  start=$(date +%s)
  while left=$((seconds_each - ($(date +%s) - start))) && [ "$left" -gt 0 ]; do
    attempt=$((attempt + 1))
    log="$work/logs/$target/fuzz-$attempt.log"
    "$binary" -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -dict="$dict" -artifact_prefix="$crashes/" "${inputs[@]}" >"$log" 2>&1
    status=$?
    stats=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{ print $2 }')
    runs=$((runs + ${stats:-0}))
    if [ $status -eq 0 ]; then break; fi
    sig=$(signature "$log")
    local artifact
    artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n1 | sed 's/Test unit written to //')
    # The executions before the crash are not in the final stats: count them from the log.
    [ -n "$stats" ] || runs=$((runs + $(grep -oE '^#[0-9]+' "$log" | tail -n1 | tr -d '#' || echo 0)))
    if [ -z "$sig" ] || [ -z "$artifact" ]; then
      echo "      the fuzzer stopped (exit $status) without a crash input: $log"
      tail -n 5 "$log" | sed 's/^/        /'
      new_crashes=$((new_crashes + 1)); break
    fi
    local is_known=0 known_sig
    for known_sig in "${known_signatures[@]}"; do [ "$known_sig" = "$sig" ] && is_known=1; done
    if [ $is_known -eq 1 ]; then
      known_hits=$((known_hits + 1))
      rm -f "$artifact"
      continue
    fi
    new_crashes=$((new_crashes + 1))
    echo "      NEW crash: $sig"
    grep -E -A12 '^==[0-9]+==ERROR|runtime error|^ibkit fuzz: ' "$log" | head -n 16 | sed 's/^/        /'
    echo "      kept in $artifact (add it to $regressions/ with the fix, or $known/ until then)"
    show_input "$artifact"
    break
  done
  local took known_note=""
  took=$(($(date +%s) - start))
  [ ${#known_signatures[@]} -eq 0 ] || known_note=", known crashes hit $known_hits times (${#known_signatures[@]} in $known/)"
  local word=PASS
  [ $failed -eq 0 ] && [ $new_crashes -eq 0 ] || word=FAIL
  echo "$word  $target: $runs runs in $took s ($((runs / (took > 0 ? took : 1))) exec/s)," \
    "$replayed regression inputs replayed, new crashes: $new_crashes$known_note"
  [ "$word" = PASS ]
}

rm -rf "$work"
mkdir -p "$work"
# Files a target makes for itself (sysfs_tree's tree) go to a folder of this run, in tmpfs when
# there is one, removed at the end even when a crash left them behind.
scratch=$(mktemp -d "$([ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/ibkit-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
build || exit 1
# A libFuzzer process uses one core: FUZZ_JOBS targets fuzz at once, each for its full time,
# and each one's lines are printed whole, in the targets' order, once it is done.
jobs=${FUZZ_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS=$jobs is not a positive number"; exit 2; }
echo "fuzz: ${#targets[@]} targets, ${seconds_each} s each, $jobs at once; crash inputs go to $work/crashes/"
mkdir -p "$work/results"
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  { fuzz_target "$target" >"$work/results/$target.out" 2>&1; echo $? >"$work/results/$target.status"; } &
  running=$((running + 1))
done
wait
passed=0
failed=0
for target in "${targets[@]}"; do
  cat "$work/results/$target.out"
  if [ "$(cat "$work/results/$target.status" 2>/dev/null)" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
