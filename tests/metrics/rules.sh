#!/usr/bin/env bash
# The alert rules the package ships (packaging/prometheus/ibkit.rules.yml): promtool checks them
# and runs their unit tests (tests/metrics/ibkit.rules*.test.yml). Debian 12 ships promtool only
# inside the prometheus package, whose installation starts a server, so this unpacks that
# package into a cache instead (IBKIT_PROMTOOL_CACHE, ~/.cache/ibkit-promtool) and installs
# nothing. PROMTOOL=/path/to/promtool uses that one. Exit 0 when all pass, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

# shellcheck source=scripts/unpacked-program.sh
source scripts/unpacked-program.sh

rules=packaging/prometheus/ibkit.rules.yml
tests=(tests/metrics/ibkit.rules.test.yml tests/metrics/ibkit.rules.ports.test.yml)
if [ -n "${PROMTOOL:-}" ]; then
  promtool=$PROMTOOL
  [ -x "$promtool" ] || { echo "rules: PROMTOOL=$promtool is not a program; unset it to unpack Debian's"; exit 1; }
else
  # Only promtool is kept (46 MB of the package's 95).
  promtool=$(unpacked_program prometheus usr/bin/promtool "${IBKIT_PROMTOOL_CACHE:-$HOME/.cache/ibkit-promtool}" only) || {
    echo "rules: cannot get promtool from Debian's prometheus package (needs apt's sources and the network, or PROMTOOL=/path/to/promtool)"
    exit 1
  }
fi

status=0
if out=$("$promtool" check rules "$rules" 2>&1); then
  echo "rules: promtool check rules $rules: $(grep -o 'SUCCESS: .*' <<<"$out")"
else
  echo "$out"; echo "rules: promtool check rules $rules failed"; status=1
fi
# The test files name the rules file relative to themselves.
if out=$("$promtool" test rules "${tests[@]}" 2>&1); then
  echo "rules: promtool test rules ${tests[*]}: $(cat "${tests[@]}" | grep -c '^  - name:') groups, $(cat "${tests[@]}" | grep -c 'eval_time:') evaluations, all as expected"
else
  echo "$out"; echo "rules: promtool test rules ${tests[*]} failed"; status=1
fi
echo "rules: ${SECONDS}s"
exit $status
