#!/bin/sh
# A stand-in for another node's ibkit in the launcher tests (launch_test.cpp).
#   check --format json  prints a passing check report of host $FAKE_AGENT_HOST, written by
#                        ibkit $FAKE_AGENT_VERSION ("" leaves agent_version out: an old agent)
#   serve ...            as an ibkit too old to know --until-stdin-closes: CLI11's usage error
set -u
case "$1" in
  check)
    version=""
    if [ -n "${FAKE_AGENT_VERSION:-}" ]; then version="\"agent_version\": \"$FAKE_AGENT_VERSION\", "; fi
    printf '{"schema": "ibkit.check/1", %s"host": "%s", "generated_at": "2026-11-28T00:00:00Z", ' \
      "$version" "${FAKE_AGENT_HOST:-fake}"
    printf '"config": "defaults", "verdict": "pass", "results": []}\n'
    ;;
  serve)
    echo "The following argument was not expected: --until-stdin-closes" >&2
    echo "Run with --help for more information." >&2
    exit 2
    ;;
  *) exit 2 ;;
esac
