"""Start one lab VM: the qemu command line and its files in the node's state dir."""

import hashlib
import shlex

from . import config, fabric
from .proc import run

QEMU = "qemu-system-x86_64"


def overlay(node):
    return node.dir / "disk.qcow2"


def console_log(node):
    return node.dir / "console.log"


def qmp_socket(node):
    return node.dir / "qmp.sock"


def pidfile(node):
    return node.dir / "qemu.pid"


def kernel_cmdline(node, ssh_pubkey_blob):
    return " ".join([
        "root=/dev/vda rw console=ttyS0 panic=-1",
        f"systemd.hostname={node.name}",
        f"systemd.machine_id={hashlib.md5(node.name.encode()).hexdigest()}",
        f"lab.ip={node.fabric_address}/24",
        f"lab.key={ssh_pubkey_blob}",
    ])


def command(node, count, image, ssh_pubkey_blob):
    """The full qemu argv for node. PCI slots are fixed: 3 mgmt NIC (ens3), 4 fabric NIC
    (ens4), 5 disk, 6 rng. The mgmt NIC is user-mode networking with restrict=on: the guest
    reaches nothing outside, the host reaches its sshd on 127.0.0.1 only."""
    return [
        QEMU, "-name", node.name, "-nodefaults", "-no-user-config",
        "-display", "none", "-vga", "none",
        "-accel", "tcg,thread=multi", "-cpu", "max", "-smp", "1", "-m", str(config.MEMORY_MB),
        "-kernel", str(image.kernel), "-initrd", str(image.initrd),
        "-append", kernel_cmdline(node, ssh_pubkey_blob),
        "-drive", f"file={overlay(node)},format=qcow2,if=none,id=disk,cache=unsafe",
        "-device", "virtio-blk-pci,drive=disk,addr=0x5",
        "-netdev", f"user,id=mgmt,restrict=on,hostfwd=tcp:127.0.0.1:{node.ssh_port}-:22",
        "-device", f"virtio-net-pci,netdev=mgmt,mac={node.mgmt_mac},addr=0x3,romfile=",
        "-netdev", fabric.netdev(node, count),
        "-device", f"virtio-net-pci,netdev=fabric,mac={node.fabric_mac},addr=0x4,romfile=",
        "-device", "virtio-rng-pci,addr=0x6",
        # A new generation ID on every start: a guest loaded from a saved state reseeds
        # its random number generator instead of repeating the saved one's.
        "-device", "vmgenid,guid=auto",
        "-serial", f"file:{console_log(node)}",
        "-qmp", f"unix:{qmp_socket(node)},server=on,wait=off",
        "-pidfile", str(pidfile(node)), "-daemonize",
    ]


def start(node, count, image, ssh_pubkey_blob, loadvm=None):
    """Start node's qemu in the background (PID in qemu.pid): a cold boot from a new
    overlay, or with loadvm=TAG from the saved state in the overlay already in place.
    Raises LabError when qemu refuses to start; its message is in qemu.log."""
    node.dir.mkdir(parents=True, exist_ok=True)
    logfile = node.dir / "qemu.log"
    if loadvm is None:
        run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(image.base), "-F", "raw",
             str(overlay(node))], logfile)
    argv = command(node, count, image, ssh_pubkey_blob)
    if loadvm is not None:
        argv += ["-loadvm", loadvm]
    (node.dir / "qemu.cmd").write_text(shlex.join(argv) + "\n")
    run(argv, logfile)
