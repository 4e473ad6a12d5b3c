#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the rdma_modules role: which kernel modules are loaded, whether an
# NVIDIA GPU and the nvidia_peermem module are present, and the Soft-RoCE state.
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
peermem_installed: {description: Whether modinfo finds nvidia_peermem for the running kernel., type: bool}
rxe_exists: {description: Whether the Soft-RoCE device exists., type: bool}
rxe_netdev: {description: The netdev the Soft-RoCE device runs on, or empty., type: str}
fabric_netdev: {description: The interface that holds fabric_address, or empty., type: str}
"""

import json
import os

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
    peermem = False
    if modinfo is not None and root == "/":
        rc, _, _ = module.run_command([modinfo, "-F", "filename", "nvidia_peermem"])
        peermem = rc == 0

    rxe_dir = os.path.join(root, "sys/class/infiniband", module.params["rxe_name"])
    module.exit_json(
        changed=False,
        loaded=loaded,
        missing=missing,
        nvidia_gpus=nvidia_gpus(root),
        peermem_installed=peermem,
        rxe_exists=os.path.isdir(rxe_dir),
        rxe_netdev=read(os.path.join(rxe_dir, "parent")),
        fabric_netdev=interface_of(module, module.params["fabric_address"]) if root == "/" else "",
    )


if __name__ == "__main__":
    main()
