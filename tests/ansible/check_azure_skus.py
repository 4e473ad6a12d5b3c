#!/usr/bin/env python3
"""The Azure SKU table (inventory/azure/group_vars/all/azure_skus.yml) drives ibkit.toml.

`check_azure_skus.py inventory DIR` writes an inventory into DIR: inventory/azure's group_vars
and sku_groups.yml, and one node per VM size below plus one size the table does not know. It
fails when the table and this list differ (a size added to one must be added to the other).
run.sh then renders every node's ibkit.toml through preflight_and_render.yml.

`check_azure_skus.py check DIR` reads the rendered files and holds each to what Azure publishes
for its size (the list below, written from Azure's size pages, not read from the table): the data
rate of every port, the number of ports (rails), GPUDirect, and the absolute bandwidth a pair
must reach (80 % of the nominal rate). Prints one line per size; exit 1 on any difference.
"""
import pathlib
import shutil
import sys
import tomllib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
UNKNOWN = "Standard_D4s_v5"

# size: (min_rate_gbps, port_count, gpu_direct, min_bandwidth_gbps)
HDR1, NDR1, EDR1 = (200.0, 1, "off", 160.0), (400.0, 1, "off", 320.0), (100.0, 1, "off", 80.0)
EXPECTED = {
    "Standard_HB120rs_v2": HDR1,
    "Standard_HB120rs_v3": HDR1, "Standard_HB120-96rs_v3": HDR1, "Standard_HB120-64rs_v3": HDR1,
    "Standard_HB120-32rs_v3": HDR1, "Standard_HB120-16rs_v3": HDR1,
    "Standard_HB176rs_v4": NDR1, "Standard_HB176-144rs_v4": NDR1, "Standard_HB176-96rs_v4": NDR1,
    "Standard_HB176-48rs_v4": NDR1, "Standard_HB176-24rs_v4": NDR1,
    "Standard_HX176rs": NDR1, "Standard_HX176-144rs": NDR1, "Standard_HX176-96rs": NDR1,
    "Standard_HX176-48rs": NDR1, "Standard_HX176-24rs": NDR1,
    "Standard_HC44rs": EDR1, "Standard_HC44-32rs": EDR1, "Standard_HC44-16rs": EDR1,
    # ND: a rail (HCA) per GPU; NVIDIA sizes need GPUDirect RDMA, the AMD one has no nvidia_peermem.
    "Standard_ND96asr_v4": (200.0, 8, "required", 160.0),
    "Standard_ND96amsr_A100_v4": (200.0, 8, "required", 160.0),
    "Standard_ND96isr_H100_v5": (400.0, 8, "required", 320.0),
    "Standard_ND96isr_H200_v5": (400.0, 8, "required", 320.0),
    "Standard_ND96isr_MI300X_v5": (400.0, 8, "off", 320.0),
    # One EDR port for 8 V100; FDR (4X: 54.5 Gb/s of data) for 4 V100.
    "Standard_ND40rs_v2": (100.0, 1, "auto", 80.0),
    "Standard_NC24rs_v3": (54.5, 1, "auto", 43.6),
}


def host_name(size):
    return size.lower().replace("_", "-")


def write_inventory(target):
    table = yaml.safe_load((ROOT / "inventory" / "azure" / "group_vars" / "all" / "azure_skus.yml").read_text())
    in_table = set(table["ibkit_azure_sizes"])
    listed = {size.lower() for size in EXPECTED}
    problems = ["azure_skus.yml has %s, which this test does not know: add what Azure publishes for it to EXPECTED" % size
                for size in sorted(in_table - listed)]
    problems += ["azure_skus.yml lacks %s" % size for size in sorted(listed - in_table)]
    problems += ["azure_skus.yml: %s names family %s, which ibkit_azure_families lacks" % (size, family)
                 for size, family in sorted(table["ibkit_azure_sizes"].items()) if family not in table["ibkit_azure_families"]]
    for problem in problems:
        print(problem)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "inventory" / "azure" / "group_vars", target / "group_vars", dirs_exist_ok=True)
    shutil.copy(ROOT / "inventory" / "azure" / "sku_groups.yml", target / "sku_groups.yml")
    hosts = {host_name(size): {"ibkit_vm_size": size} for size in list(EXPECTED) + [UNKNOWN]}
    (target / "hosts.yml").write_text(yaml.safe_dump({"all": {"children": {"ibkit_nodes": {"hosts": hosts}}}}))
    return 1 if problems else 0


def check_rendered(directory):
    failures = 0
    for size, (rate, ports, gpu_direct, bandwidth) in list(EXPECTED.items()) + [(UNKNOWN, (None, 1, "auto", None))]:
        path = directory / (host_name(size) + ".toml")
        if not path.exists():
            print("FAIL  %s: no %s rendered" % (size, path.name))
            failures += 1
            continue
        config = tomllib.loads(path.read_text())
        expect, thresholds = config.get("expect", {}), config.get("thresholds", {})
        # ports "all" is the agent's default, which the role leaves out of the file.
        got = (expect.get("min_rate_gbps"), expect.get("port_count"), expect.get("gpu_direct"),
               thresholds.get("min_bandwidth_gbps"), expect.get("ports", "all"))
        wanted = (rate, ports, gpu_direct, bandwidth, "all")
        same = got[:3] + got[4:] == wanted[:3] + wanted[4:] and (
            (got[3] is None and bandwidth is None) or (got[3] is not None and bandwidth is not None and abs(got[3] - bandwidth) < 0.05))
        print("%s  %-28s min_rate_gbps %s, port_count %s, gpu_direct %s, min_bandwidth_gbps %s, ports %s%s"
              % ("ok  " if same else "FAIL", size, *got, "" if same else "; expected %s" % (wanted,)))
        failures += 0 if same else 1
    return 1 if failures else 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("inventory", "check"):
        print("usage: check_azure_skus.py inventory|check DIR")
        return 2
    target = pathlib.Path(sys.argv[2])
    return write_inventory(target) if sys.argv[1] == "inventory" else check_rendered(target)


if __name__ == "__main__":
    sys.exit(main())
