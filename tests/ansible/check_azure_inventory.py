#!/usr/bin/env python3
"""inventory/azure against a stand-in for Azure Resource Manager on 127.0.0.1.

Runs the real plugins: ibkit_azure_vmss (inventory_plugins/), which is azure.azcollection's
azure_rm (Debian's 1.16) with the Azure SDK from Debian (python3-azure, python3-msrestazure),
authenticated by a managed-identity token, over HTTPS to tests/ansible/azure_arm/fake_arm.py.
That endpoint serves one subscription (azure_arm/subscription.py): a Uniform and a Flexible scale
set tagged ibkit=nodes, each with a stopped instance, an untagged Uniform set from before
orchestration modes, an AKS node pool (in the same resource group, even tagged ibkit=nodes),
AKS's own node resource group, a standalone VM and a resource group no inventory names.

For each case, `ansible-inventory --list` must show exactly the expected hosts in exactly the
expected groups (ibkit_nodes, vmss_<set>, azure_<family> from the SKU table), each host with its
VM size, scale set and orchestration mode; and the request log must show that nothing outside
the named resource groups was listed, and that no Flexible set was asked for its VMs through the
Uniform-only API. The last case is the inventory as it was before (the stock azure_rm plugin,
every scale set of the subscription): it must show the AKS pools and miss the Flexible set, so
these checks can tell a wrong inventory from a right one.

Run it in a network namespace of its own (run.sh: unshare -n), so nothing but loopback can be
reached whatever the Azure SDK tries. Prints one line per check; exit 1 on any failure.
"""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "azure_arm"))
import subscription  # noqa: E402

AUTH_KEYS = ("auth_source", "subscription_id", "cloud_environment")
HBV3 = ["hbv3-uni_0", "hbv3-uni_1"]
FLEX = ["ndh100-flex_1a2b3c4d", "ndh100-flex_5e6f7a8b"]
HC = ["hc-legacy_0"]
SUB_PATH = "/subscriptions/" + subscription.SUBSCRIPTION_ID


def expected_groups(hosts_by_set, families):
    groups = {"ibkit_nodes": sorted(h for hosts in hosts_by_set.values() for h in hosts)}
    for name, hosts in hosts_by_set.items():
        groups["vmss_" + name.replace("-", "_")] = sorted(hosts)
    for family, hosts in families.items():
        groups["azure_" + family] = sorted(hosts)
    return groups


# name, overrides of azure_rm.yml (None: the committed file as it is), expected groups,
# expected host facts {host: (size, mode)}
CASES = [
    ("committed azure_rm.yml: the resource group's scale sets tagged ibkit=nodes", {},
     expected_groups({"hbv3-uni": HBV3, "ndh100-flex": FLEX}, {"hbv3": HBV3, "ndh100v5": FLEX})),
    ("the same, fetched one request at a time (batch_fetch false: an error would fail the run)",
     {"batch_fetch": False},
     expected_groups({"hbv3-uni": HBV3, "ndh100-flex": FLEX}, {"hbv3": HBV3, "ndh100v5": FLEX})),
    ("scale sets by name (any case), no tags", {"ibkit_scale_sets": ["HC-Legacy", "ndh100-flex"], "ibkit_scale_set_tags": {}},
     expected_groups({"hc-legacy": HC, "ndh100-flex": FLEX}, {"hc": HC, "ndh100v5": FLEX})),
    ("every scale set of the resource group (no names, no tags): still no AKS pool",
     {"ibkit_scale_set_tags": {}},
     expected_groups({"hbv3-uni": HBV3, "ndh100-flex": FLEX, "hc-legacy": HC},
                     {"hbv3": HBV3, "ndh100v5": FLEX, "hc": HC})),
]
FACTS = {"hbv3-uni_0": ("Standard_HB120rs_v3", "Uniform", "10.0.1.4"),
         "hbv3-uni_1": ("Standard_HB120rs_v3", "Uniform", "10.0.1.5"),
         "ndh100-flex_1a2b3c4d": ("Standard_ND96isr_H100_v5", "Flexible", "10.0.2.4"),
         "ndh100-flex_5e6f7a8b": ("Standard_ND96isr_H100_v5", "Flexible", "10.0.2.5"),
         "hc-legacy_0": ("Standard_HC44rs", "Uniform", "10.0.3.4")}

# The inventory before this plugin (stock azure_rm, every scale set of the subscription).
OLD_CONFIG = {"plugin": "azure.azcollection.azure_rm", "include_vm_resource_groups": [],
              "include_vmss_resource_groups": ["*"], "plain_host_names": True,
              "exclude_host_filters": ["powerstate != 'running'"],
              "hostvar_expressions": {"ansible_host": "private_ipv4_addresses | first"},
              "conditional_groups": {"ibkit_nodes": "vmss.name is defined"}}


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, ok, what, detail=""):
        print(("ok    " if ok else "FAIL  ") + what + ("" if ok or not detail else "\n      " + detail.replace("\n", "\n      ")))
        self.failed += 0 if ok else 1
        return ok


def start_endpoint(work):
    cert, key = work / "cert.pem", work / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-addext", "basicConstraints=critical,CA:TRUE"], check=True, capture_output=True, timeout=60)
    port_file = work / "port"
    server = subprocess.Popen([sys.executable, str(HERE / "azure_arm" / "fake_arm.py"), str(cert), str(key),
                               str(port_file), str(work / "requests.log")])
    for _ in range(100):
        if port_file.exists():
            return server, cert, int(port_file.read_text())
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    raise SystemExit("fake_arm.py did not start")


def inventory_dir(work, name, config, sku_groups=True):
    target = work / name
    shutil.copytree(ROOT / "inventory" / "azure" / "group_vars", target / "group_vars")
    if sku_groups:
        shutil.copy(ROOT / "inventory" / "azure" / "sku_groups.yml", target / "sku_groups.yml")
    (target / "azure_rm.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    return target


def run_inventory(target, env, *args):
    return subprocess.run(["ansible-inventory", "-i", str(target), *args], capture_output=True, text=True,
                          timeout=300, env=env, cwd=ROOT)


def groups_of(listing):
    groups = {}
    for name, body in listing.items():
        if name in ("_meta", "all", "ungrouped"):
            continue
        groups[name] = sorted(body.get("hosts", []))
    return groups


def read_log(path):
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main():
    if os.geteuid() == 0 and subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True).returncode != 0:
        print("cannot bring up loopback in this namespace")
        return 1
    checks = Checks()
    committed = yaml.safe_load((ROOT / "inventory" / "azure" / "azure_rm.yml").read_text())
    with tempfile.TemporaryDirectory(prefix="ibkit-azure-inv.") as temp:
        work = pathlib.Path(temp)
        server, cert, port = start_endpoint(work)
        try:
            base_url = "https://127.0.0.1:%d" % port
            auth = {"auth_source": "msi", "subscription_id": subscription.SUBSCRIPTION_ID, "cloud_environment": base_url}
            env = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
            env.update(ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), REQUESTS_CA_BUNDLE=str(cert), NO_PROXY="127.0.0.1",
                       MSI_ENDPOINT=base_url + "/msi/token", ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED="true",
                       ANSIBLE_NOCOLOR="1")
            log = work / "requests.log"

            for number, (name, overrides, groups) in enumerate(CASES):
                config = dict(committed)
                config.update(auth)
                config.update(overrides)
                log.write_text("")
                target = inventory_dir(work, "case%d" % number, config)
                result = run_inventory(target, env, "--list")
                if not checks.check(result.returncode == 0, name + ": ansible-inventory --list runs",
                                    result.stderr[-3000:]):
                    continue
                listing = json.loads(result.stdout)
                seen = groups_of(listing)
                checks.check(seen == groups, name + ": exactly the expected hosts and groups",
                             "got:      %s\nexpected: %s" % (json.dumps(seen, sort_keys=True), json.dumps(groups, sort_keys=True)))
                hostvars = listing.get("_meta", {}).get("hostvars", {})
                for host in groups["ibkit_nodes"]:
                    size, mode, address = FACTS[host]
                    facts = hostvars.get(host, {})
                    got = (facts.get("ibkit_vm_size"), (facts.get("vmss") or {}).get("orchestration_mode"), facts.get("ansible_host"))
                    checks.check(got == (size, mode, address), "%s: %s has size, mode and address %s" % (name, host, (size, mode, address)),
                                 "got %s" % (got,))
                requests = read_log(log)
                paths = [entry["path"].lower() for entry in requests]
                outside = [p for p in paths if p.startswith(SUB_PATH.lower()) and not p.startswith((SUB_PATH + "/resourceGroups/ibkit-rg/").lower())]
                checks.check(not outside, name + ": nothing listed outside resource group ibkit-rg", "\n".join(outside))
                flexible_lists = [p for p in paths if p.endswith("/virtualmachinescalesets/ndh100-flex/virtualmachines")]
                checks.check(not flexible_lists, name + ": the Flexible set is never asked for its VMs (Uniform-only API)",
                             "\n".join(flexible_lists))
                aks = [p for p in paths if "/virtualmachinescalesets/aks-" in p and p.endswith("/virtualmachines")]
                checks.check(not aks, name + ": the AKS node pool's instances are never fetched", "\n".join(aks))
                if number == 0:
                    graph = run_inventory(target, env, "--graph")
                    print(graph.stdout.rstrip())

            for wrong, message in (({"ibkit_resource_groups": ["*"]}, "ibkit_resource_groups must name the resource groups"),
                                   ({"include_vmss_resource_groups": ["*"]}, "include_vmss_resource_groups is set by ibkit_azure_vmss")):
                config = dict(committed)
                config.update(auth)
                config.update(wrong)
                target = inventory_dir(work, "wrong%d" % len(message), config)
                result = run_inventory(target, env, "--list")
                checks.check(result.returncode != 0 and message in " ".join(result.stderr.split()),
                             "refused: %s (the whole subscription)" % wrong,
                             "exit %d; stderr: %s" % (result.returncode, result.stderr[-1500:]))

            # azure_rm would let this variable list more resource groups than the file names.
            config = dict(committed)
            config.update(auth)
            target = inventory_dir(work, "wrong-env", config)
            result = run_inventory(target, dict(env, ANSIBLE_AZURE_VM_RESOURCE_GROUPS="other-rg"), "--list")
            checks.check(result.returncode != 0 and "ANSIBLE_AZURE_VM_RESOURCE_GROUPS is set" in " ".join(result.stderr.split()),
                         "refused: ANSIBLE_AZURE_VM_RESOURCE_GROUPS widening the scope",
                         "exit %d; stderr: %s" % (result.returncode, result.stderr[-1500:]))

            # The inventory before: it must fail these checks, or the checks prove nothing.
            config = dict(OLD_CONFIG)
            config.update(auth)
            log.write_text("")
            target = inventory_dir(work, "old", config, sku_groups=False)
            result = run_inventory(target, env, "--list")
            if checks.check(result.returncode == 0, "the old inventory (stock azure_rm) runs", result.stderr[-3000:]):
                nodes = sorted(json.loads(result.stdout).get("ibkit_nodes", {}).get("hosts", []))
                checks.check(any(host.startswith("aks-") for host in nodes) and not any(host in nodes for host in FLEX),
                             "the old inventory shows the bugs these checks catch: AKS pools in, Flexible VMs out",
                             "ibkit_nodes: %s" % nodes)
                paths = [entry["path"].lower() for entry in read_log(log)]
                checks.check(any(p == (SUB_PATH + "/providers/Microsoft.Compute/virtualMachineScaleSets").lower() for p in paths),
                             "the old inventory lists every scale set of the subscription (the request log sees it)")
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    print("%d check(s) failed" % checks.failed if checks.failed else "all checks passed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
