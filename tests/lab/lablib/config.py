"""Where the lab keeps things, and the fixed identity of each node."""

import os
from dataclasses import dataclass
from pathlib import Path

LAB_DIR = Path(__file__).resolve().parent.parent          # tests/lab
REPO_DIR = LAB_DIR.parent.parent
CACHE_DIR = Path(os.environ.get("IBKIT_LAB_CACHE", Path.home() / ".cache" / "ibkit-lab"))
IMAGES_DIR = CACHE_DIR / "images"
STATE_DIR = CACHE_DIR / "run"                              # the one running lab
SSH_KEY = CACHE_DIR / "id_ed25519"
SSH_CONFIG = CACHE_DIR / "ssh_config"
INVENTORY = REPO_DIR / "inventory" / "lab" / "hosts.yml"

# Ports on 127.0.0.1: SSH forward of node i is PORT_BASE + i, its fabric UDP port
# (2-node dgram segment) PORT_BASE + 100 + i.
PORT_BASE = int(os.environ.get("LAB_PORT_BASE", "22200"))
MAX_NODES = 8
FABRIC_PREFIX = "192.168.77"
FABRIC_NETDEV = "ens4"     # the fabric NIC sits at PCI slot 4 (see qemu.py)
MEMORY_MB = 1024


@dataclass(frozen=True)
class Node:
    """One VM of the lab: lab1, lab2, ... with fixed ports, MACs and fabric address."""

    index: int

    @property
    def name(self):
        return f"lab{self.index}"

    @property
    def ssh_port(self):
        return PORT_BASE + self.index

    @property
    def fabric_port(self):
        return PORT_BASE + 100 + self.index

    @property
    def fabric_address(self):
        return f"{FABRIC_PREFIX}.{10 + self.index}"

    @property
    def mgmt_mac(self):
        return f"52:54:00:12:00:{self.index:02x}"

    @property
    def fabric_mac(self):
        return f"52:54:00:77:00:{self.index:02x}"

    @property
    def dir(self):
        return STATE_DIR / self.name


def nodes(count):
    """The first `count` nodes; raises ValueError outside 1..MAX_NODES."""
    if not 1 <= count <= MAX_NODES:
        raise ValueError(f"--nodes must be 1..{MAX_NODES}, got {count}")
    return [Node(i) for i in range(1, count + 1)]


def node_by_name(name):
    """Node for 'lab2' or '2'; raises ValueError for anything else."""
    digits = name[3:] if name.startswith("lab") else name
    if not digits.isdigit() or not 1 <= int(digits) <= MAX_NODES:
        raise ValueError(f"unknown node '{name}' (expected lab1..lab{MAX_NODES})")
    return Node(int(digits))
