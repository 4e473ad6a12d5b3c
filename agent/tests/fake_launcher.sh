#!/bin/sh
# A stand-in for ssh and srun in the launcher tests (launch_test.cpp), installed under both
# names: the node it is asked for decides what happens, and anything else runs the command here.
#   down*  ssh: the connection is refused (exit 255); srun: srun's own error (exit 1)
#   bare*  the node has no ibkit (127, the shell's "not found"; srun: slurmstepd's execve error)
#   mute*  the command runs and says nothing, its stderr held open (a launcher that hangs)
#   deaf*  a launcher that says its server listens, then ignores SIGTERM and its stdin closing:
#          only SIGKILL ends it
#   hung*  a launcher that never ends and says nothing (a node that hangs)
#   slow*  ibkit check runs here; ibkit serve never says it listens (a server slow to start)
#   127.*  a node on a loopback address of this machine: ibkit serve there gets --bind NODE, so
#          several servers share one port (their ibkit check reports this machine's host name)
# Each call's arguments are appended to FAKE_LAUNCHER_LOG, when set, one line per call.
set -u
me=$(basename "$0")
if [ -n "${FAKE_LAUNCHER_LOG:-}" ]; then printf '%s\n' "$me $*" >>"$FAKE_LAUNCHER_LOG"; fi
if [ "$me" = srun ]; then
  node=""
  for arg in "$@"; do
    case "$arg" in --nodelist=*) node=${arg#--nodelist=} ;; esac
  done
  while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
  shift
  case "$node $2" in 127.*" serve") set -- "$@" --bind "$node" ;; esac
else
  # ssh -o ... -T -- NODE COMMAND
  while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
  node=${2#*@} # USER@NODE: the node decides
  shift 2
  case "$node $1" in 127.*" serve "*) set -- "$1 --bind $node" ;; esac
  set -- sh -c "$1"
fi
case "$node" in
  down*)
    if [ "$me" = srun ]; then
      echo "srun: error: Invalid node name specified" >&2
      exit 1
    fi
    echo "ssh: connect to host $node port 22: Connection refused" >&2
    exit 255
    ;;
  bare*)
    if [ "$me" = srun ]; then
      echo "slurmstepd: error: execve(): ibkit: No such file or directory" >&2
      echo "srun: error: $node: task 0: Exited with exit code 2" >&2
      exit 2
    fi
    echo "sh: 1: ibkit: not found" >&2
    exit 127
    ;;
  deaf*)
    trap '' TERM
    echo "ibkit serve: listening on $node:1 (a launcher deaf to SIGTERM)" >&2
    exec sleep 600
    ;;
  hung*) exec sleep 600 ;;
  slow*)
    case "$*" in *" serve "*) exec sleep 600 ;; esac
    ;;
  mute*)
    exec 3>&2
    exec "$@" 2>/dev/null
    ;;
esac
exec "$@"
