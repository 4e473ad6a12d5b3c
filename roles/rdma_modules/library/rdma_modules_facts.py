#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the rdma_modules role: which kernel modules are loaded, the GPUs and
# which GPUDirect RDMA path the node has (nvidia_peermem on an RDMA core that takes peer
# memory, or DMA-BUF with the open GPU kernel modules), and the Soft-RoCE state.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: rdma_modules_facts
short_description: Probe kernel modules, NVIDIA GPUs and Soft-RoCE links (changes nothing)
description:
  - Reads /sys and runs modinfo and ip; never changes the system, so it runs in check mode.
options:
  modules:
    description: Module names to report as loaded or missing (dashes and underscores are equivalent).
    type: list
    elements: str
    default: []
  rxe_name:
    description: Name of the Soft-RoCE device to look for under /sys/class/infiniband.
    type: str
    default: rxe0
  fabric_address:
    description: IPv4 address (optionally with /prefix) whose interface is reported as fabric_netdev.
    type: str
    default: ""
  root:
    description: Directory that stands for / (tests point it at a fixture tree).
    type: path
    default: /
"""

RETURN = r"""
loaded: {description: Requested modules that are loaded or built in., type: list}
missing: {description: Requested modules that are not loaded., type: list}
nvidia_gpus: {description: PCI addresses of NVIDIA display or 3D controllers (vendor 0x10de, class 0x03xxxx)., type: list}
amd_gpus: {description: PCI addresses of AMD GPUs and accelerators (vendor 0x1002, class 0x03xxxx or 0x12xxxx)., type: list}
peermem_installed: {description: Whether nvidia_peermem is loaded or modinfo finds it for the running kernel., type: bool}
peer_memory_supported: {description: Whether the RDMA core takes peer-memory clients (sys/kernel/mm/memory_peers, MOFED/DOCA ib_core)., type: bool}
nvidia_open: {description: Whether the loaded NVIDIA driver is the open GPU kernel modules (proc/driver/nvidia/version)., type: bool}
dma_buf: {description: Whether GPUDirect RDMA can use DMA-BUF (open GPU kernel modules on Linux 5.12 or later)., type: bool}
rxe_exists: {description: Whether the Soft-RoCE device exists., type: bool}
rxe_netdev: {description: The netdev the Soft-RoCE device runs on, or empty., type: str}
fabric_netdev: {description: The interface that holds fabric_address, or empty., type: str}
"""

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.ibkit_sysfs import read


def module_loaded(root, name):
    return os.path.isdir(os.path.join(root, "sys/module", name.replace("-", "_")))


def nvidia_gpus(root):
    base = os.path.join(root, "sys/bus/pci/devices")
    found = []
    for address in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        device = os.path.join(base, address)
        if read(os.path.join(device, "vendor")).lower() == "0x10de" and read(os.path.join(device, "class")).lower().startswith("0x03"):
            found.append(address)
    return found


def amd_gpus(root):
    base = os.path.join(root, "sys/bus/pci/devices")
    found = []
    for address in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        device = os.path.join(base, address)
        if read(os.path.join(device, "vendor")).lower() == "0x1002" and \
                read(os.path.join(device, "class")).lower().startswith(("0x03", "0x12")):
            found.append(address)
    return found


def kernel_at_least(root, major, minor):
    """Whether proc/sys/kernel/osrelease is MAJOR.MINOR or later (False when unreadable)."""
    match = re.match(r"^(\d+)\.(\d+)", read(os.path.join(root, "proc/sys/kernel/osrelease")))
    return bool(match) and (int(match.group(1)), int(match.group(2))) >= (major, minor)


def interface_of(module, address):
    """The interface that holds address, from `ip -json -4 addr`; empty when none does."""
    wanted = address.split("/")[0]
    ip = module.get_bin_path("ip")
    if not wanted or ip is None:
        return ""
    rc, out, _ = module.run_command([ip, "-json", "-4", "addr", "show"])
    if rc != 0:
        return ""
    try:
        links = json.loads(out)
    except ValueError:
        return ""
    for link in links:
        for info in link.get("addr_info", []):
            if info.get("local") == wanted:
                return link.get("ifname", "")
    return ""


def main():
    module = AnsibleModule(
        argument_spec=dict(
            modules=dict(type="list", elements="str", default=[]),
            rxe_name=dict(type="str", default="rxe0"),
            fabric_address=dict(type="str", default=""),
            root=dict(type="path", default="/"),
        ),
        supports_check_mode=True,
    )
    root = module.params["root"]
    loaded = [m for m in module.params["modules"] if module_loaded(root, m)]
    missing = [m for m in module.params["modules"] if m not in loaded]

    modinfo = module.get_bin_path("modinfo")
    peermem = module_loaded(root, "nvidia_peermem")  # loaded: installed, whatever modinfo says
    if not peermem and modinfo is not None and root == "/":
        rc, _, _ = module.run_command([modinfo, "-F", "filename", "nvidia_peermem"])
        peermem = rc == 0

    rxe_dir = os.path.join(root, "sys/class/infiniband", module.params["rxe_name"])
    nvidia_open = "Open Kernel Module" in read(os.path.join(root, "proc/driver/nvidia/version"))
    module.exit_json(
        changed=False,
        loaded=loaded,
        missing=missing,
        nvidia_gpus=nvidia_gpus(root),
        amd_gpus=amd_gpus(root),
        peermem_installed=peermem,
        # MLNX_OFED's and DOCA-OFED's ib_core create memory_peers; nvidia_peermem loads nowhere else.
        peer_memory_supported=os.path.isdir(os.path.join(root, "sys/kernel/mm/memory_peers")),
        nvidia_open=nvidia_open,
        dma_buf=nvidia_open and kernel_at_least(root, 5, 12),
        rxe_exists=os.path.isdir(rxe_dir),
        rxe_netdev=read(os.path.join(rxe_dir, "parent")),
        fabric_netdev=interface_of(module, module.params["fabric_address"]) if root == "/" else "",
    )


if __name__ == "__main__":
    main()
