#!/bin/sh
# Runs INSIDE a lab VM (labctl ssh NODE sh -s -- NETDEV < setup-rxe.sh): Soft-RoCE the plain
# way, until the provisioning roles do it. Loads the RDMA modules, creates rxe0 on the fabric
# NIC unless it exists, and waits (with a deadline) for its port to be ACTIVE.
set -eu
netdev=${1:?usage: setup-rxe.sh NETDEV}
deadline=$(( $(date +%s) + 30 ))

for module in rdma_rxe ib_uverbs ib_umad ib_ipoib; do
  modprobe "$module"
done
# `rdma link show rxe0` exits 1 even when the link exists; sysfs is the reliable test.
if [ ! -e /sys/class/infiniband/rxe0 ]; then
  rdma link add rxe0 type rxe netdev "$netdev"
fi
state=/sys/class/infiniband/rxe0/ports/1/state
until grep -q ACTIVE "$state"; do
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "rxe0 port 1 not ACTIVE after 30s: $(cat "$state")" >&2
    exit 1
  fi
  sleep 1
done
echo "$(hostname): rxe0 on $netdev: $(cat "$state")"
