#!/usr/bin/env bash
# Runs every test tier that exists, prints each tier's duration, and ends with one summary
# line. A tier that fails does not stop the others; the exit status is 1 if any failed.
# SKIP_TIERS="lab ansible" leaves tiers out (never in CI).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${BUILD_DIR:-build}

tier_unit() { ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --timeout 60 -j2; }
tier_ansible() { tests/ansible/run.sh; }
tier_host() { tests/host/run.sh; }
tier_lab() { tests/lab/tier.sh; }

available=(unit)
[ -x tests/ansible/run.sh ] && available+=(ansible)
[ -x tests/host/run.sh ] && available+=(host)
[ -x tests/lab/tier.sh ] && available+=(lab)

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
