"""Bring the lab up, take it down, say how it is."""

import re
import socket
import subprocess
import sys
import time

from . import access, config, fabric, image, inventory, qemu, snapshot, state
from .proc import Deadline, LabError, alive, log, read_pid, stop

CONSOLE_TAIL = 40
WARM_TIMEOUT = 90   # a warm start answers in seconds; past this, boot cold instead
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def _qemu_pid(node):
    return read_pid(qemu.pidfile(node))


def _qemu_alive(node):
    pid = _qemu_pid(node)
    return pid is not None and alive(pid, str(node.dir))


def _switch_pid():
    return read_pid(config.STATE_DIR / fabric.SWITCH_PID)


def _check_ports_free(nodes):
    """Raise LabError when a port the lab needs on 127.0.0.1 is taken."""
    wanted = [(socket.SOCK_STREAM, n.ssh_port) for n in nodes]
    wanted += [(socket.SOCK_DGRAM, p) for p in fabric.udp_ports(nodes)]
    for kind, port in wanted:
        with socket.socket(socket.AF_INET, kind) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                raise LabError(f"port {port} on 127.0.0.1 is in use; set LAB_PORT_BASE "
                               f"to move the lab's ports (now {config.PORT_BASE})") from None


def console_tail(node, lines=CONSOLE_TAIL):
    """The last non-empty lines of node's serial console log, without colour codes."""
    try:
        text = qemu.console_log(node).read_text(errors="replace")
    except FileNotFoundError:
        return "(no console log)"
    kept = [line for line in _ESCAPES.sub("", text).split("\n") if line.strip()]
    return "\n".join(kept[-lines:])


def _raise(why):
    raise LabError(why)


def _fail_with_console(nodes, why):
    for node in nodes:
        log(f"--- {node.name}: last {CONSOLE_TAIL} lines of {qemu.console_log(node)} ---")
        print(console_tail(node), file=sys.stderr, flush=True)
    raise LabError(why)


def wait_for_ssh(nodes, timeout, since=None, console=True):
    """Return when every node answers SSH; on timeout or a dead qemu raise LabError,
    after showing the console tail of the nodes concerned (unless console=False)."""
    since = since or time.monotonic()
    fail = _fail_with_console if console else lambda _nodes, why: _raise(why)
    deadline = Deadline(timeout)
    pending = list(nodes)
    while pending:
        for node in list(pending):
            if not _qemu_alive(node):
                fail([node], f"{node.name}: qemu exited while booting")
            try:
                ok = access.ssh(node, ["true"], timeout=30).returncode == 0
            except subprocess.TimeoutExpired:
                ok = False
            if ok:
                pending.remove(node)
                log(f"{node.name}: SSH ready after {time.monotonic() - since:.0f}s")
        if pending and deadline.expired():
            names = ", ".join(n.name for n in pending)
            fail(pending, f"no SSH from {names} within {timeout}s")
        if pending:
            time.sleep(2)


def _check_fabric_address(node):
    """Raise LabError unless the fabric NIC carries node's fabric address."""
    result = access.ssh(node, ["ip", "-o", "-4", "addr", "show", "dev", config.FABRIC_NETDEV],
                        timeout=60)
    if f" {node.fabric_address}/" not in result.stdout:
        raise LabError(f"{node.name}: {config.FABRIC_NETDEV} lacks {node.fabric_address}: "
                       f"{result.stdout.strip() or result.stderr.strip()}")


def _sync_clocks(nodes):
    """Set each node's clock from the host's (a loaded state keeps the time it was saved)."""
    for node in nodes:
        result = access.ssh(node, ["date", "-u", "-s", f"@{time.time():.3f}"], timeout=60)
        if result.returncode != 0:
            raise LabError(f"{node.name}: cannot set the clock: {result.stderr.strip()}")


def _boot_warm(nodes, img, key_blob, saved):
    """Start every node from its saved state. Returns False (nothing left running, saved
    states dropped) when that does not give SSH within WARM_TIMEOUT."""
    t0 = time.monotonic()
    try:
        saved.seed()
        for node in nodes:
            qemu.start(node, len(nodes), img, key_blob, loadvm=snapshot.TAG)
        log(f"started {len(nodes)} VMs from their saved booted state")
        wait_for_ssh(nodes, WARM_TIMEOUT, since=t0, console=False)
        _sync_clocks(nodes)
        return True
    except (LabError, OSError) as e:
        log(f"warm start failed ({e}): dropping the saved states, booting cold")
        saved.discard()
        _stop_vms()
        return False


def _boot_cold(nodes, img, key_blob, timeout):
    t0 = time.monotonic()
    for node in nodes:
        qemu.start(node, len(nodes), img, key_blob)
    log(f"started {len(nodes)} VMs (software emulation); waiting for SSH, up to {timeout}s")
    wait_for_ssh(nodes, timeout, since=t0)


def _save_booted_state(nodes, saved):
    """Keep the booted state for the next up; a failure here only costs the next up time."""
    for node in nodes:
        access.close_master(node)
    try:
        saved.save()
    except (LabError, OSError) as e:
        log(f"could not save the booted state ({e}); the next up boots cold")
        saved.discard()


def _start(nodes, img, key_blob, timeout):
    t0 = time.monotonic()
    fabric.start_switch(len(nodes), config.STATE_DIR / "fabric.log")
    saved = snapshot.Saved(nodes, img, key_blob)
    warm = saved.ready() and _boot_warm(nodes, img, key_blob, saved)
    if not warm:
        _boot_cold(nodes, img, key_blob, timeout)
    for node in nodes:
        _check_fabric_address(node)
    if not warm:
        _save_booted_state(nodes, saved)
    inventory.write(nodes)
    log(f"lab up in {time.monotonic() - t0:.0f}s: {', '.join(n.name for n in nodes)}; "
        f"inventory {config.INVENTORY}")


def _anything_running():
    nodes = [n for n in config.nodes(config.MAX_NODES) if n.dir.exists()]
    switch = _switch_pid()
    return any(_qemu_alive(n) for n in nodes) or (
        switch is not None and alive(switch, str(config.STATE_DIR)))


def up(count, timeout):
    """Start a lab of count nodes; on any failure nothing is left running."""
    nodes = config.nodes(count)
    with state.Lock(wait=0):
        if config.STATE_DIR.exists():
            if _anything_running():
                raise LabError("a lab is already up; run `labctl down` first")
            _teardown()
        with state.image_lock():
            img = image.ensure_image()
        key_blob = access.ensure_key()
        _check_ports_free(nodes)
        state.save(count, img.path, "vde" if fabric.uses_switch(count) else "dgram")
        access.write_ssh_config(nodes)
        try:
            _start(nodes, img, key_blob, timeout)
        except BaseException:
            log("up failed: taking the lab down")
            _teardown()
            raise


def _stop_vms():
    """Stop every node's qemu by PID and remove its state; returns what would not stop."""
    survivors = []
    for node in config.nodes(config.MAX_NODES):
        if not node.dir.exists():
            continue
        try:
            access.close_master(node)
        except subprocess.TimeoutExpired:
            pass
        pid = _qemu_pid(node)
        if pid is not None and not stop(pid, str(node.dir)):
            survivors.append(f"qemu {pid}")
        else:
            subprocess.run(["rm", "-rf", str(node.dir)], check=True)
    return survivors


def _teardown():
    """Stop every qemu and the switch by PID, then remove the state; raise if one survives."""
    survivors = _stop_vms()
    pid = _switch_pid()
    if pid is not None and not stop(pid, str(config.STATE_DIR)):
        survivors.append(f"vde_switch {pid}")
    if survivors:
        raise LabError(f"could not stop {', '.join(survivors)}; state kept in {config.STATE_DIR}")
    inventory.remove()
    subprocess.run(["rm", "-rf", str(config.STATE_DIR)], check=True)


def down():
    """Stop whatever the lab has running (also after a failed up)."""
    with state.Lock(wait=60):
        if not config.STATE_DIR.exists():
            log("no lab is up")
            inventory.remove()
            return
        _teardown()
        log("lab down: no qemu or vde_switch left")


def status():
    """Print one line per node; returns 0 when all nodes run and answer SSH, else 1."""
    record = state.load()
    if record is None:
        print("no lab is up")
        return 1
    print(f"lab: {record['count']} nodes, fabric {record['fabric']}, up since {record['started']}")
    healthy = True
    for node in config.nodes(record["count"]):
        running = _qemu_alive(node)
        reach = "-"
        if running:
            try:
                reach = "ssh ok" if access.ssh(node, ["true"], 20).returncode == 0 else "no ssh"
            except subprocess.TimeoutExpired:
                reach = "no ssh"
        healthy &= running and reach == "ssh ok"
        print(f"{node.name}  pid {_qemu_pid(node) if running else '-':>7}  "
              f"{'running' if running else 'stopped'}  {reach:7}  ssh 127.0.0.1:{node.ssh_port}  "
              f"fabric {node.fabric_address} ({config.FABRIC_NETDEV})")
    return 0 if healthy else 1
