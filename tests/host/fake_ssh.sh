#!/bin/sh
# ssh for the launched sweeps of the sweep tier (sweep.sh): `ssh [OPTIONS] -- A.B.C.N COMMAND`
# runs COMMAND in network namespace $FAKE_SSH_PREFIX-N under host name nN (a UTS namespace of
# its own, so each node's check report names its node), the way sshd runs it: through sh, its
# stdin and stderr those of this process. An address without a namespace is a host that does
# not answer: ssh's own message and exit status 255.
set -u
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
node=$2
command=$3
n=${node##*.}
if ! ip netns list | grep -q "^$FAKE_SSH_PREFIX-$n\( \|$\)"; then
  echo "ssh: connect to host $node port 22: No route to host" >&2
  exit 255
fi
# shellcheck disable=SC2016  # expanded by the inner sh
exec ip netns exec "$FAKE_SSH_PREFIX-$n" unshare --uts sh -c 'hostname "n$1" && exec sh -c "$2"' sh "$n" "$command"
