#!/usr/bin/env bash
# The alert rules the package ships (packaging/prometheus/ibkit.rules.yml): promtool checks them
# and runs their unit tests (tests/metrics/ibkit.rules*.test.yml). Debian 12 ships promtool only
# inside the prometheus package, whose installation starts a server, so this unpacks that
# package into a cache instead (IBKIT_PROMTOOL_CACHE, ~/.cache/ibkit-promtool) and installs
# nothing. PROMTOOL=/path/to/promtool uses that one. Exit 0 when all pass, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

# unpacked_promtool: the path of promtool from Debian's prometheus package, downloaded (apt's
# lists updated first if they have no candidate) and unpacked once per version; false, saying
# why, when it cannot be had.
unpacked_promtool() {
  local cache=${IBKIT_PROMTOOL_CACHE:-$HOME/.cache/ibkit-promtool} version dir download
  version=$(apt-cache policy prometheus 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    timeout 300 apt-get update -qq >/dev/null 2>&1
    version=$(apt-cache policy prometheus 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  fi
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then echo "rules: no prometheus package in apt's lists" >&2; return 1; fi
  dir=$cache/prometheus-$version
  if [ ! -x "$dir/usr/bin/promtool" ]; then
    download=$(mktemp -d)
    # The download runs as root where apt's _apt user cannot write the directory: apt says
    # so and downloads anyway; that note is not a failure.
    # Only promtool is kept (48 MB of the package's 95).
    (cd "$download" && timeout 300 apt-get download -qq "prometheus=$version" >/dev/null 2>&1) &&
      dpkg-deb -x "$download"/prometheus_*.deb "$download/root" &&
      rm -rf "$dir" && mkdir -p "$dir/usr/bin" && mv "$download/root/usr/bin/promtool" "$dir/usr/bin/"
    rm -rf "$download"
    [ -x "$dir/usr/bin/promtool" ] || { echo "rules: apt-get download prometheus=$version did not give usr/bin/promtool" >&2; return 1; }
  fi
  echo "$dir/usr/bin/promtool"
}

rules=packaging/prometheus/ibkit.rules.yml
tests=(tests/metrics/ibkit.rules.test.yml tests/metrics/ibkit.rules.ports.test.yml)
if [ -n "${PROMTOOL:-}" ]; then
  promtool=$PROMTOOL
  [ -x "$promtool" ] || { echo "rules: PROMTOOL=$promtool is not a program; unset it to unpack Debian's"; exit 1; }
else
  promtool=$(unpacked_promtool) || {
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
