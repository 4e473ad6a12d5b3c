#!/usr/bin/env python3
"""inventory/azure/azure_rm.yml offline: every key is an option of the azure_rm plugin (from
ansible-doc), and the conditional groups put sample scale-set VMs in ibkit_nodes and in the
right series group, by VM size or by the ibkit_size tag. Exit 1 on any problem."""
import json
import pathlib
import subprocess
import sys

import yaml
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = [  # hostvars as the plugin sets them -> the series group expected
    (dict(virtual_machine_size="Standard_HB120rs_v3", tags={}, vmss=dict(name="hpc")), "azure_hb"),
    (dict(virtual_machine_size="Standard_HC44rs", tags={}, vmss=dict(name="hpc")), "azure_hc"),
    (dict(virtual_machine_size="Standard_ND96asr_v4", tags={}, vmss=dict(name="ai")), "azure_nd"),
    (dict(virtual_machine_size=None, tags=dict(ibkit_size="Standard_ND96isr_H100_v5"), vmss=dict(name="ai")), "azure_nd"),
    (dict(virtual_machine_size="Standard_D4s_v5", tags={}, vmss={}), None),  # a VM outside any scale set
]


def main():
    problems = []
    config = yaml.safe_load((ROOT / "inventory" / "azure" / "azure_rm.yml").read_text())
    doc = subprocess.run(["ansible-doc", "-t", "inventory", "--json", config["plugin"]],
                         capture_output=True, text=True, timeout=120, check=False)
    if doc.returncode != 0:
        print(f"ansible-doc cannot describe {config['plugin']}: {doc.stderr.strip()}")
        return 1
    options = json.loads(doc.stdout)[config["plugin"]]["doc"]["options"]
    problems += [f"azure_rm.yml: {key} is not an option of {config['plugin']}" for key in config if key not in options]

    groups = config.get("conditional_groups", {})
    for hostvars, series in SAMPLES:
        templar = Templar(loader=DataLoader(), variables=hostvars)
        member = {name for name, expression in groups.items()
                  if templar.template("{%% if %s %%}1{%% endif %%}" % expression) == "1"}
        wanted = {"ibkit_nodes", series} if series else set()
        if member != wanted:
            problems.append(f"{hostvars}: in groups {sorted(member)}, wanted {sorted(wanted)}")
        else:
            print(f"{hostvars.get('virtual_machine_size') or hostvars['tags']}: {sorted(member)}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
