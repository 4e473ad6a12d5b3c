#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the ipoib role: the IPoIB interfaces with their HCA driver, mode, MTU and
# addresses, and which network stack is in charge.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: ipoib_facts
short_description: List IPoIB interfaces and the active network stack (changes nothing)
options:
  root:
    description: Directory that stands for / (tests point it at a fixture tree); stacks and addresses are only probed on /.
    type: path
    default: /
"""

RETURN = r"""
interfaces:
  description: "IPoIB netdevs (ARPHRD_INFINIBAND, type 32): name, driver, ib_device, port, mode, mtu, addresses."
  type: list
stacks:
  description: "networkmanager / networkd: whether the service is active; ifupdown: ifup and /etc/network/interfaces exist;
    ifupdown_sources_dir: /etc/network/interfaces sources interfaces.d; ifupdown_ifaces: interfaces it configures itself."
  type: dict
"""

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.ibkit_sysfs import read

ARPHRD_INFINIBAND = "32"


def addresses(module):
    """ifname -> ['a.b.c.d/nn', ...] from `ip -json addr`."""
    ip = module.get_bin_path("ip")
    if ip is None:
        return {}
    rc, out, _ = module.run_command([ip, "-json", "-4", "addr", "show"])
    try:
        links = json.loads(out) if rc == 0 else []
    except ValueError:
        links = []
    return dict((link.get("ifname"), ["%s/%s" % (a["local"], a["prefixlen"]) for a in link.get("addr_info", []) if "local" in a])
                for link in links)


def interfaces(module, root):
    base = os.path.join(root, "sys/class/net")
    found = []
    live = addresses(module) if root == "/" else {}
    for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        path = os.path.join(base, name)
        if read(os.path.join(path, "type")) != ARPHRD_INFINIBAND:
            continue
        driver = os.path.basename(os.path.realpath(os.path.join(path, "device", "driver"))) \
            if os.path.exists(os.path.join(path, "device", "driver")) else ""
        ib_dir = os.path.join(path, "device", "infiniband")
        ib_devices = sorted(os.listdir(ib_dir)) if os.path.isdir(ib_dir) else []
        dev_port = read(os.path.join(path, "dev_port"))
        found.append(dict(
            name=name,
            driver=driver,
            ib_device=ib_devices[0] if ib_devices else "",
            port=int(dev_port, 0) + 1 if re.match(r"^(0x)?[0-9a-fA-F]+$", dev_port) else 1,
            mode=read(os.path.join(path, "mode")),
            mtu=int(read(os.path.join(path, "mtu")) or 0),
            addresses=live.get(name, []),
        ))
    return found


def service_active(module, name):
    systemctl = module.get_bin_path("systemctl")
    if systemctl is None:
        return False
    rc, _, _ = module.run_command([systemctl, "is-active", "--quiet", name])
    return rc == 0


def stacks(module, root):
    if root != "/":
        return dict(networkmanager=False, networkd=False, ifupdown=False, ifupdown_sources_dir=False, ifupdown_ifaces=[])
    interfaces_file = read("/etc/network/interfaces")
    return dict(
        networkmanager=service_active(module, "NetworkManager.service"),
        networkd=service_active(module, "systemd-networkd.service"),
        ifupdown=module.get_bin_path("ifup") is not None and os.path.exists("/etc/network/interfaces"),
        ifupdown_sources_dir=bool(re.search(r"^\s*source(-directory)?\s+/etc/network/interfaces\.d", interfaces_file, re.M)),
        ifupdown_ifaces=sorted(set(re.findall(r"^\s*iface\s+(\S+)", interfaces_file, re.M))),
    )


def main():
    module = AnsibleModule(argument_spec=dict(root=dict(type="path", default="/")), supports_check_mode=True)
    root = module.params["root"]
    module.exit_json(changed=False, interfaces=interfaces(module, root), stacks=stacks(module, root))


if __name__ == "__main__":
    main()
