#!/usr/bin/env bash
# Sanitize tier (make sanitize): the agent and its unit tests built with clang's AddressSanitizer
# and UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first finding aborts) into
# build-asan, the build the fuzz tier shares (scripts/instrumented-build.sh), then ctest and the
# host tier (tests/host/run.sh) on that build. Every process
# writes what a sanitizer finds to one folder, so a finding in a server nobody waits for, or in
# a child whose exit status a case expects to be 1, still fails the tier. Needs what the unit
# and host tiers need (root for the namespaces).
#   ASAN_BUILD_DIR=build-asan   where the sanitized build goes
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
build_dir=${ASAN_BUILD_DIR:-build-asan}
findings=$(realpath -m "$build_dir/sanitizer-findings")

now() { date +%s; }

ASAN_BUILD_DIR=$build_dir scripts/instrumented-build.sh || { echo "sanitize: the build failed"; exit 1; }
built=$(now)

rm -rf "$findings"
mkdir -p "$findings"
# exitcode 86: a sanitizer's abort is never mistaken for ibkit's own exit 1 (a failed check).
# No detect_stack_use_after_return: its fake stacks do not fit the address-space limit a unit
# test sets to make thread creation fail (sweep_coordinator_test.cpp).
export ASAN_OPTIONS="log_path=$findings/asan:exitcode=86:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="log_path=$findings/ubsan:exitcode=86:print_stacktrace=1"

status=0
echo "--- ctest ($build_dir)"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --timeout 180 -j2 |
  tee "$build_dir/ctest.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tested=$(now)
echo "sanitize: ctest took $((tested - built)) s, $(grep -c '(Skipped)$' "$build_dir/ctest.log") skipped"

echo "--- host tier ($build_dir)"
# The HTML page's large case at 256 nodes: the same canvas code path as 1,024 (above 64), without
# building half a million pairs under ASan's memory and time.
BUILD_DIR="$build_dir" LARGE_NODES=${LARGE_NODES:-256} tests/host/run.sh || status=1
echo "sanitize: host tier took $(($(now) - tested)) s"

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
