#!/usr/bin/env bash
# The agent and its unit tests built with clang's AddressSanitizer and UndefinedBehaviorSanitizer
# (-fno-sanitize-recover=all: the first finding aborts) into build-asan, the build the fuzz tier
# shares (scripts/instrumented-build.sh), then run there: ctest, which is the unit tier's run of
# the unit tests (there is no second, uninstrumented run), and the host tier (tests/host/run.sh),
# which is the sanitize tier. Every process writes what a sanitizer finds to one folder, so a
# finding in a server nobody waits for, or in a child whose exit status a case expects to be 1,
# still fails the run. Needs what the unit and host tiers need (root for the namespaces).
#   tests/sanitize/run.sh [ctest] [host]   those parts (make sanitize: both)
#   ASAN_BUILD_DIR=build-asan              where the sanitized build goes
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
build_dir=${ASAN_BUILD_DIR:-build-asan}
findings=$(realpath -m "$build_dir/sanitizer-findings")

now() { date +%s; }

if [ $# -gt 0 ]; then parts=("$@"); else parts=(ctest host); fi
for part in "${parts[@]}"; do
  [[ $part == ctest || $part == host ]] || { echo "sanitize: no part '$part' (ctest, host)"; exit 2; }
done

ASAN_BUILD_DIR=$build_dir scripts/instrumented-build.sh || { echo "sanitize: the build failed"; exit 1; }

rm -rf "$findings"
mkdir -p "$findings"
# exitcode 86: a sanitizer's abort is never mistaken for ibkit's own exit 1 (a failed check).
# No detect_stack_use_after_return: its fake stacks do not fit the address-space limit a unit
# test sets to make thread creation fail (sweep_coordinator_test.cpp).
export ASAN_OPTIONS="log_path=$findings/asan:exitcode=86:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="log_path=$findings/ubsan:exitcode=86:print_stacktrace=1"

# ctest, then how many tests it skipped (SKIP_RETURN_CODE, agent/tests/skip_test.hpp) and why:
# a skipped test does not fail the run, but it is not a pass either.
run_ctest() {
  local status skipped
  echo "--- ctest ($build_dir)"
  ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --timeout 180 -j2 |
    tee "$build_dir/ctest.log"
  status=${PIPESTATUS[0]}
  skipped=$(grep -cE '^[[:space:]]*[0-9]+ - .* \(Skipped\)$' "$build_dir/ctest.log")
  echo "unit tests: $skipped skipped"
  # Each skip's reason, the "SKIPPED: " line of its output.
  [ "$skipped" -eq 0 ] || awk '/^[0-9]+\/[0-9]+ Test: / { sub(/^[0-9]+\/[0-9]+ Test: /, ""); name = $0 }
    /^SKIPPED: / { print "  " name ": " substr($0, 10) }' "$build_dir/Testing/Temporary/LastTest.log"
  return "$status"
}

status=0
for part in "${parts[@]}"; do
  started=$(now)
  if [ "$part" = ctest ]; then
    run_ctest || status=1
  else
    echo "--- host tier ($build_dir)"
    # The HTML page's large case at 256 nodes: the same canvas code path as 1,024 (above 64),
    # without building half a million pairs under ASan's memory and time. The packages are
    # not built from this build: an instrumented agent is never packaged, and packing is
    # CPack's and the shell's work, which the host tier checks (45 s saved).
    BUILD_DIR="$build_dir" LARGE_NODES=${LARGE_NODES:-256} HOST_SKIP="case_package case_rpm" \
      tests/host/run.sh || status=1
  fi
  echo "sanitize: $part took $(($(now) - started)) s"
done

reports=("$findings"/*)
if [ -e "${reports[0]}" ]; then
  echo "sanitize: ${#reports[@]} sanitizer reports:"
  for report in "${reports[@]}"; do
    echo "  $report"
    grep -E -A14 '^==[0-9]+==ERROR|runtime error|^SUMMARY' "$report" | head -n 20 | sed 's/^/    /'
  done
  status=1
else
  echo "sanitize: no sanitizer findings"
fi
exit $status
