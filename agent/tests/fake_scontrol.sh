#!/bin/sh
# A stand-in for Slurm's scontrol in the `ibkit health` tests (health_cli_test.cpp): one node
# whose state lives in a file, so a test can set it up and read what ibkit did.
#   FAKE_SCONTROL_STATE  file with two lines: the State= value and the Reason= value ("" none)
#   FAKE_SCONTROL_LOG    each call's arguments are appended as one line, separated by " | "
#   FAKE_SCONTROL_HANG   when set, hang (sleep 100) instead of answering
#   FAKE_SCONTROL_REPLY  show node answers with this: "other NAME" (a line about node NAME),
#                        "two" (a second node's line after the one asked about), or "garbage"
#                        (a long line of control characters and no NodeName=)
# Understands `-o show node NAME` and `update NodeName=NAME State=DRAIN|RESUME [Reason=...]`.
set -eu
state_file=${FAKE_SCONTROL_STATE:?FAKE_SCONTROL_STATE must name the node state file}
if [ -n "${FAKE_SCONTROL_LOG:-}" ]; then
  line=""
  for arg in "$@"; do line="$line$arg | "; done
  printf '%s\n' "$line" >>"$FAKE_SCONTROL_LOG"
fi
if [ -n "${FAKE_SCONTROL_HANG:-}" ]; then sleep 100; fi

state=$(sed -n 1p "$state_file")
reason=$(sed -n 2p "$state_file")
case "$*" in
  "-o show node "*)
    node=$4
    case "${FAKE_SCONTROL_REPLY:-}" in
      "other "*) node=${FAKE_SCONTROL_REPLY#other } ;;
      garbage)
        i=0
        while [ $i -lt 500 ]; do printf '\033[2J\rjunk '; i=$((i + 1)); done
        printf '\n'
        exit 0
        ;;
    esac
    if [ -n "$reason" ]; then
      printf 'NodeName=%s Arch=x86_64 CoresPerSocket=8 CPUAlloc=0 State=%s ThreadsPerCore=1 Reason=%s [root@2024-05-01T10:00:00]\n' \
        "$node" "$state" "$reason"
    else
      printf 'NodeName=%s Arch=x86_64 CoresPerSocket=8 CPUAlloc=0 State=%s ThreadsPerCore=1\n' "$node" "$state"
    fi
    if [ "${FAKE_SCONTROL_REPLY:-}" = two ]; then
      printf 'NodeName=%s Arch=x86_64 CoresPerSocket=8 CPUAlloc=0 State=IDLE ThreadsPerCore=1\n' "$node-b"
    fi
    ;;
  "update NodeName="*" State=DRAIN Reason="*)
    reason=${4#Reason=}
    base=${state%%+*}
    printf '%s\n%s\n' "$base+DRAIN" "$reason" >"$state_file"
    ;;
  "update NodeName="*" State=RESUME")
    printf '%s\n%s\n' "IDLE" "" >"$state_file"
    ;;
  *)
    echo "fake scontrol: cannot do: $*" >&2
    exit 1
    ;;
esac
