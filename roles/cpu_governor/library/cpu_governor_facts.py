#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the cpu_governor role: cpufreq presence, offered and current governors,
# and the state of units that would set another governor at boot.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: cpu_governor_facts
short_description: Report cpufreq governors and conflicting units (changes nothing)
options:
  services:
    description: Units whose LoadState, UnitFileState and ActiveState are reported.
    type: list
    elements: str
    default: []
  root:
    description: Directory that stands for / (tests point it at a fixture tree).
    type: path
    default: /
"""

RETURN = r"""
cpufreq: {description: Whether /sys/devices/system/cpu/cpu0/cpufreq exists., type: bool}
available: {description: Governors cpu0 offers., type: list}
current: {description: "CPU name -> current governor, for every CPU with cpufreq.", type: dict}
services: {description: "Unit -> {present, enabled, active}.", type: dict}
"""

import glob
import os
import re

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.ibkit_sysfs import read


def unit_state(module, name):
    systemctl = module.get_bin_path("systemctl")
    if systemctl is None:
        return dict(present=False, enabled=False, active=False)
    rc, out, _ = module.run_command([systemctl, "show", "--property=LoadState,UnitFileState,ActiveState", name])
    props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line) if rc == 0 else {}
    return dict(
        present=props.get("LoadState") == "loaded",
        enabled=props.get("UnitFileState") in ("enabled", "enabled-runtime"),
        active=props.get("ActiveState") in ("active", "activating"),
    )


def main():
    module = AnsibleModule(
        argument_spec=dict(
            services=dict(type="list", elements="str", default=[]),
            root=dict(type="path", default="/"),
        ),
        supports_check_mode=True,
    )
    cpus = os.path.join(module.params["root"], "sys/devices/system/cpu")
    current = {}
    for path in glob.glob(os.path.join(cpus, "cpu[0-9]*", "cpufreq", "scaling_governor")):
        cpu = path.split(os.sep)[-3]
        if re.match(r"^cpu[0-9]+$", cpu):
            current[cpu] = read(path)
    module.exit_json(
        changed=False,
        cpufreq=os.path.isdir(os.path.join(cpus, "cpu0", "cpufreq")),
        available=read(os.path.join(cpus, "cpu0", "cpufreq", "scaling_available_governors")).split(),
        current=current,
        services=dict((name, unit_state(module, name)) for name in module.params["services"]),
    )


if __name__ == "__main__":
    main()
