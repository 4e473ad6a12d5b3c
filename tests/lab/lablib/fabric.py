"""The private fabric segment between the VMs.

2 nodes (or 1): a point-to-point `-netdev dgram`, UDP on 127.0.0.1 between the two qemus.
3+ nodes: a `vde_switch` reachable only through unix sockets in the state dir.
Never `-netdev socket` (TCP): it turns verbs latency from ~1 ms into ~22 ms.
"""

import time

from . import config
from .proc import Deadline, LabError, read_pid, run

SWITCH_DIR = "vde.ctl"
SWITCH_PID = "vde.pid"


def uses_switch(count):
    return count > 2


def netdev(node, count):
    """The -netdev argument of node's fabric NIC (id 'fabric') in a lab of count nodes."""
    if uses_switch(count):
        return f"vde,id=fabric,sock={config.STATE_DIR / SWITCH_DIR}"
    peer = config.Node(2 if node.index == 1 else 1)
    return ("dgram,id=fabric,"
            f"local.type=inet,local.host=127.0.0.1,local.port={node.fabric_port},"
            f"remote.type=inet,remote.host=127.0.0.1,remote.port={peer.fabric_port}")


def udp_ports(nodes):
    """Loopback UDP ports the segment binds (none for the switch)."""
    return [] if uses_switch(len(nodes)) else [n.fabric_port for n in nodes]


def start_switch(count, logfile, timeout=15):
    """Start the vde_switch when count needs one; returns when its socket is there."""
    if not uses_switch(count):
        return
    rc = config.STATE_DIR / "vde.rc"
    rc.write_text("")
    sock = config.STATE_DIR / SWITCH_DIR
    pidfile = config.STATE_DIR / SWITCH_PID
    run(["vde_switch", "--sock", str(sock), "--dirmode", "0700", "--mode", "0600",
         "--numports", str(count + 4), "--rcfile", str(rc), "--pidfile", str(pidfile),
         "--daemon"], logfile)
    deadline = Deadline(timeout)
    while not (read_pid(pidfile) and (sock / "ctl").exists()):
        if deadline.expired():
            raise LabError(f"vde_switch did not come up within {timeout}s (see {logfile})")
        time.sleep(0.1)
