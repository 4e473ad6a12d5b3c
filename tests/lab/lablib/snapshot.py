"""Warm starts: each node's state right after its first boot, saved with qemu's savevm.

A cold boot to SSH takes about a minute under emulation; `-loadvm` of a saved state takes
seconds. A saved state is only valid for the same qemu, command line, image and SSH key,
so all of those make up its key, and anything that changes them makes a new one. The
first `up` after a change boots cold and saves; later ones load. If a warm start does not
answer SSH quickly, labctl drops the saved states and boots cold (see lab.py).
Set LAB_SNAPSHOTS=0 to always boot cold.
"""

import hashlib
import os
import shutil
import subprocess

from . import config, qemu, qmp
from .proc import LabError, log

TAG = "lab-ready"


def enabled():
    return os.environ.get("LAB_SNAPSHOTS", "1") != "0"


def _qemu_version():
    return subprocess.run([qemu.QEMU, "--version"], capture_output=True, text=True).stdout


def _key(nodes, img, key_blob):
    h = hashlib.sha256()
    for part in (img.path.name, _qemu_version(), str(len(nodes)), str(config.PORT_BASE), key_blob):
        h.update(part.encode() + b"\0")
    for module in ("qemu.py", "config.py", "fabric.py", "snapshot.py"):
        h.update((config.LAB_DIR / "lablib" / module).read_bytes())
    return h.hexdigest()[:16]


class Saved:
    """The saved states of a lab of len(nodes) nodes: snapshots/<key>/labN.qcow2."""

    def __init__(self, nodes, img, key_blob):
        self.nodes = nodes
        self.dir = config.CACHE_DIR / "snapshots" / _key(nodes, img, key_blob)

    def _file(self, node):
        return self.dir / f"{node.name}.qcow2"

    def ready(self):
        return enabled() and (self.dir / "complete").exists()

    def seed(self):
        """Copy each node's saved overlay into its state dir (qemu.start then loads it)."""
        for node in self.nodes:
            node.dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self._file(node), qemu.overlay(node))

    def discard(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def save(self):
        """Pause each running node, savevm into its overlay, copy it, resume it.
        Only for freshly booted nodes with no SSH session open."""
        if not enabled():
            return
        work = self.dir.with_name(self.dir.name + ".saving")
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        for node in self.nodes:
            sock = qemu.qmp_socket(node)
            qmp.execute(sock, "stop")
            try:
                said = qmp.execute(sock, "human-monitor-command",
                                   {"command-line": f"savevm {TAG}"}, timeout=120)
                if said.strip():  # savevm prints nothing on success
                    raise LabError(f"{node.name}: savevm: {said.strip()}")
                shutil.copyfile(qemu.overlay(node), work / f"{node.name}.qcow2")
            finally:
                qmp.execute(sock, "cont")
        (work / "complete").write_text("")
        for other in self.dir.parent.iterdir():
            if other != work and self._same_size_lab(other):
                shutil.rmtree(other, ignore_errors=True)
        work.rename(self.dir)
        log(f"saved the booted state of {len(self.nodes)} nodes for warm starts")

    def _same_size_lab(self, other):
        """True for saved states of a lab with as many nodes as this one (older keys)."""
        names = {p.name for p in other.glob("lab*.qcow2")}
        return names == {f"{n.name}.qcow2" for n in self.nodes}
