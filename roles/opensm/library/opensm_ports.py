#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the opensm role: every RDMA port with its link layer, states and port GUID.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: opensm_ports
short_description: List RDMA ports with link layer, state and port GUID from sysfs (changes nothing)
options:
  root:
    description: Directory that stands for / (tests point it at a fixture tree).
    type: path
    default: /
"""

RETURN = r"""
ports:
  description: "One entry per port: device, port, link_layer, state, phys_state, guid (0x plus 16 hex digits)."
  type: list
"""

import os

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.ibkit_sysfs import read


def port_guid(gid0):
    """fe80:0000:0000:0000:0002:c902:0029:8e01 -> 0x0002c90200298e01 (the low 64 bits of GID 0)."""
    groups = gid0.split(":")
    if len(groups) != 8:
        return ""
    return "0x" + "".join(group.zfill(4) for group in groups[4:]).lower()


def state_name(text):
    """'4: ACTIVE' -> 'ACTIVE', '5: LinkUp' -> 'LinkUp'."""
    return text.split(":", 1)[-1].strip()


def main():
    module = AnsibleModule(argument_spec=dict(root=dict(type="path", default="/")), supports_check_mode=True)
    base = os.path.join(module.params["root"], "sys/class/infiniband")
    ports = []
    for device in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        port_dir = os.path.join(base, device, "ports")
        numbers = sorted((int(p) for p in os.listdir(port_dir) if p.isdigit()) if os.path.isdir(port_dir) else [])
        for number in numbers:
            path = os.path.join(port_dir, str(number))
            ports.append(dict(
                device=device,
                port=number,
                link_layer=read(os.path.join(path, "link_layer")),
                state=state_name(read(os.path.join(path, "state"))),
                phys_state=state_name(read(os.path.join(path, "phys_state"))),
                guid=port_guid(read(os.path.join(path, "gids", "0"))),
            ))
    module.exit_json(changed=False, ports=ports)


if __name__ == "__main__":
    main()
