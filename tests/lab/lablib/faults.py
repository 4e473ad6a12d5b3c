"""Faults the later test tiers inject, each from the host.

link-down/up uses qemu's `set_link` on the fabric NIC: the guest sees carrier loss as
from a pulled cable (rxe's port goes DOWN), nothing inside the guest is touched, and it
works even when the guest is too busy or broken to run a command. `ip link set down`
inside the guest would be an administrator's action, not a link fault.
"""

import subprocess
import sys
import time

from . import access, lab, qemu, qmp
from .proc import Deadline, LabError, log

BOOT_ID = ["cat", "/proc/sys/kernel/random/boot_id"]


def set_link(node, up):
    """Carrier of node's fabric NIC on (up=True) or off."""
    qmp.execute(qemu.qmp_socket(node), "set_link", {"name": "fabric", "up": up})
    log(f"{node.name}: fabric link {'up' if up else 'down'}")


def unload_module(node, module):
    """`modprobe -r module` on node; raises LabError with modprobe's message on failure."""
    result = access.ssh(node, ["modprobe", "-r", module], timeout=120)
    if result.returncode != 0:
        raise LabError(f"{node.name}: modprobe -r {module}: {result.stderr.strip()}")
    log(f"{node.name}: unloaded {module}")


def _boot_id(node):
    try:
        result = access.ssh(node, BOOT_ID, timeout=30)
    except subprocess.TimeoutExpired:
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def reboot(node, timeout):
    """Reboot node from inside and return once it answers SSH with a new boot id."""
    before = _boot_id(node)
    if before is None:
        raise LabError(f"{node.name}: not reachable over SSH before the reboot")
    t0 = time.monotonic()
    access.ssh(node, ["systemctl", "--no-block", "reboot"], timeout=60)
    access.close_master(node)
    deadline = Deadline(timeout)
    while not deadline.expired():
        time.sleep(3)
        now = _boot_id(node)
        if now is not None and now != before:
            log(f"{node.name}: back after reboot in {time.monotonic() - t0:.0f}s")
            return
    print(lab.console_tail(node), file=sys.stderr, flush=True)
    raise LabError(f"{node.name}: no SSH with a new boot id within {timeout}s of the reboot")
